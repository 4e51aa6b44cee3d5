import { z } from 'zod';
import { ErrorGroupsQuery, FailureKind } from '../../../shared/api';
import { rawLines } from '../../db/raw-lines';
import { lineAttrs } from '../../ingest/normalize';
import { cutString } from '../../spans/event-detail';
import { callResult, errorGroups } from '../../triage/error-groups';
import { defineTool } from '../tool-context';
import { ToolInputError } from '../tool-output';
import { limitArg, repoArg, windowArg } from './args';

/** The latest occurrence's result text: what the tool or model answered, often the real cause. */
const RESULT_CHARS = 1500;

export const errorGroupsTool = defineTool({
  name: 'error_groups',
  title: 'Failures grouped by cause',
  description:
    'Every failure across the indexed sessions (failed tool and model calls, subagents, hooks with errors, customization files skipped at discovery), grouped by kind, subject ' +
    '(the tool, model, hook or discovery name) and a normalized error signature, most frequent first; each group with its count, sessions affected, first and last time seen, ' +
    'and its latest occurrence: the full error, the call\'s result text, its session and a dashboard link. Use it for "what keeps failing"; open an occurrence with get_events(session_id, around_event=event_id).',
  input: {
    window: windowArg,
    repo: repoArg,
    kind: FailureKind.optional().describe('only failures of this kind: tool, model, subagent, hook, discovery or other'),
    limit: limitArg(100, 20),
    cursor: z.string().regex(/^\d+$/, 'cursor is the next_cursor of the previous answer (a number)').optional().describe('the next_cursor of the previous answer'),
  },
  run(ctx, a) {
    const q = ErrorGroupsQuery.parse({ window: a.window, repo: a.repo, kind: a.kind, limit: a.limit, offset: a.cursor ?? 0 });
    const r = errorGroups(ctx.db, q, ctx.now());
    if (a.cursor !== undefined && r.groups.length === 0 && Number(a.cursor) > 0 && r.totalGroups > 0) throw new ToolInputError(`cursor ${a.cursor} is past the last group (${r.totalGroups}): start again without a cursor`);
    return {
      listKey: 'groups',
      payload: {
        total_groups: r.totalGroups,
        total_failures: r.totalFailures,
        by_kind: r.byKind,
        groups: r.groups.map((g) => {
          // the call's result as the API reads it (callResult), cut at this tool's longer limit
          const full = callResult(lineAttrs(rawLines(ctx.db).json(g.latest.eventId)));
          const result = full !== null && full.length > RESULT_CHARS ? cutString(full, RESULT_CHARS) : full;
          return {
            kind: g.kind,
            subject: g.subject,
            signature: g.signature,
            count: g.count,
            sessions: g.sessions,
            first_seen: g.firstSeen === null ? null : new Date(g.firstSeen).toISOString(),
            last_seen: g.lastSeen === null ? null : new Date(g.lastSeen).toISOString(),
            latest: {
              event_id: g.latest.eventId,
              session_id: g.latest.sessionId,
              error: g.latest.message,
              result,
              link: ctx.links.session(g.latest.sessionId, g.latest.eventId),
            },
          };
        }),
        next_cursor: r.nextOffset === null ? null : String(r.nextOffset),
      },
    };
  },
});
