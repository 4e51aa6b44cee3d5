import { getSessionDetail } from '../../sessions/session-detail';
import { sourceOf } from '../../../shared/api';
import { getEventDetail } from '../../spans/event-detail';
import { spanOverview } from '../../spans/list-spans';
import { defineTool } from '../tool-context';
import { ToolInputError } from '../tool-output';
import { sessionIdArg } from './args';

/** A request's user text in the answer: long enough to recognise the prompt, short enough to list hundreds. */
const USER_TEXT_CHARS = 600;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const getSessionTool = defineTool({
  name: 'get_session',
  title: 'One session: facts and requests',
  description:
    'The facts of one Copilot session: title, repository, branch, workspace folder, first and last activity, models used, token totals, errors, ' +
    'the child sessions it started (subagents, title and summary requests) and its parent, then its requests in order: each user prompt with its tool-loop iterations, duration, error count and the event id to open. ' +
    'Use it after search_sessions to see what happened in a session; use get_events to read the calls of one request.',
  input: { session_id: sessionIdArg },
  run(ctx, a) {
    const s = getSessionDetail(ctx.db, a.session_id);
    if (!s) throw new ToolInputError(`no session ${a.session_id} in the index: pass an id returned by search_sessions`);
    const overview = spanOverview(ctx.db, a.session_id);
    const requests = overview.requests.map((r) => {
      const content = getEventDetail(ctx.db, r.id, USER_TEXT_CHARS)?.attrs.content;
      return {
        event_id: r.id,
        user_text: typeof content === 'string' ? content : r.label,
        started: iso(r.start),
        duration_ms: r.start !== null && r.end !== null ? r.end - r.start : null,
        iterations: r.iterations,
        unfinished_iterations: r.unfinished,
        errors: r.errors,
        link: ctx.links.session(s.id, r.id),
      };
    });
    const noShutdown = sourceOf(s) === 'cli' && s.usageComplete === false;
    return {
      listKey: 'requests',
      payload: {
        session_id: s.id,
        title: s.title,
        source: sourceOf(s),
        repository: s.repository,
        branch: s.branch,
        workspace_folder: s.workspaceFolder,
        started: iso(s.firstTs ?? s.createdAt),
        last_activity: iso(s.lastTs ?? s.updatedAt),
        copilot_version: s.copilotVersion,
        vscode_version: s.vscodeVersion,
        models: s.models,
        events: s.eventCount,
        errors: s.errorCount,
        // A CLI session without session.shutdown has per-call output tokens only: its input, cache and credit
        // totals are unknown (null), not 0.
        usage_complete: !noShutdown,
        tokens: { input: noShutdown ? null : s.tokensIn, output: s.tokensOut, cached: noShutdown ? null : s.tokensCached },
        // Σ copilotUsageNanoAiu / 10⁹ of its model calls; null when none carries credit data (unknown, not 0).
        credits: noShutdown ? null : s.credits,
        model_time_ms: s.modelMs,
        slowest_call: s.slowest ? { event_id: s.slowest.eventId, name: s.slowest.name, duration_ms: s.slowest.dur, link: ctx.links.session(s.id, s.slowest.eventId) } : null,
        parent: s.parentId ? { session_id: s.parentId, label: s.label, link: ctx.links.session(s.parentId) } : null,
        children: s.children.map((c) => ({ session_id: c.id, label: c.label, title: c.title, events: c.eventCount, errors: c.errorCount })),
        children_total: s.childCount,
        log_deleted: s.logDeleted,
        link: ctx.links.session(s.id),
        requests_total: overview.requestsTotal,
        requests,
      },
    };
  },
});
