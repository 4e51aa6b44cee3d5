import { z } from 'zod';

// The figures more than one view shows, each defined once. A view that shows one of them uses these schemas (so
// the definition travels with the field) and gets its number from the one server function named below; a test
// checks that the views agree (server/counts/agreement.test.ts).

/**
 * The event count of a session: every event line of its own log and of its child logs (subagents, title,
 * summarize…, at any depth) in every root the session was found in. An event line is a line that parses as a JSON
 * object with a `type`, what `jq -c 'select(type == "object" and .type)'` counts over those files; replay copies
 * and repeats are included, since they are in the files (the span tree hides in-file repeats, statistics leave
 * copies out). For a top-level session that is every log file of its folder. Bad lines and cut fragments are not
 * events. Shown by the search result, the session header (and its list of children) and the sessions list; computed
 * by `sessionEventCounts` (server/counts/session-events.ts). The lineage graph is not one of them: each of its nodes
 * is one log, and shows that log's own entries beside its children's nodes.
 */
export const SessionEventCount = z.number().int().nonnegative();

/**
 * The error count of a session: the failed events (status error) of its own log and of its child logs at any depth,
 * the same family as SessionEventCount, each event once (in-file repeats left out, as the span tree shows them).
 * Shown by the sessions list (and its sort by errors), the session header's Errors (the span tree's own count of the
 * same family) and its list of children, the Markdown export and `get_session`; computed by `sessionFigures`
 * (server/counts/session-events.ts). The lineage graph counts each log's own, like its event counts.
 */
export const SessionErrorCount = z.number().int().nonnegative();

/**
 * The file count of the index: log files (`.jsonl`: main, child and legacy logs) in the archive, including those
 * Copilot has deleted since (their lines are kept). Companion files (models.json, system_prompt_N.json,
 * tools_N.json) are counted apart, in `companions`. Shown by `index`, the serve banner and /api/health; computed by
 * `indexTotals` (server/counts/index-totals.ts).
 */
export const IndexedFileCount = z.number().int().nonnegative();

/** Companion files in the archive (models.json, system_prompt_N.json, tools_N.json), deleted ones included. */
export const IndexedCompanionCount = z.number().int().nonnegative();

/** Top-level sessions with events or a deleted log: the sessions list's total (no window, no filter). */
export const IndexedSessionCount = z.number().int().nonnegative();
