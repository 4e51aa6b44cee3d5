import { z } from 'zod';
import { sourceOf } from '../../../shared/api';
import { CALL_TYPES, EventListQuery } from '../../../shared/api';
import { listEvents } from '../../triage/events';
import { defineTool } from '../tool-context';
import { cursorArg, limitArg, repoArg, windowArg } from './args';

export const slowestCallsTool = defineTool({
  name: 'slowest_calls',
  title: 'Slowest calls across sessions',
  description:
    'The slowest model requests, tool calls, subagents and hooks across every indexed session (or one repository), slowest first, each with its session, duration, ' +
    'time to first token, tokens, status and error, plus a dashboard link to the call. Use it to answer "why was it slow": then read the call in context with get_events(session_id, around_event=event_id). ' +
    'Only canonical events count (replayed copies are left out), as in the dashboard\'s triage page.',
  input: {
    window: windowArg,
    repo: repoArg,
    type: z.enum(CALL_TYPES).optional().describe('only this kind of call: llm_request, tool_call, subagent or hook'),
    model: z.string().max(200).optional().describe('only model calls of this model, e.g. gpt-4.1'),
    tool: z.string().max(200).optional().describe('only calls of this tool (or subagent name), e.g. run_in_terminal'),
    min_ms: z.number().int().min(-1, 'min_ms is -1 (every call) or more').default(5000).describe('slower than this many milliseconds (default 5000, the troubleshoot skill\'s threshold; 0 for every call with a duration)'),
    limit: limitArg(100, 20),
    cursor: cursorArg,
  },
  run(ctx, a) {
    const q = EventListQuery.parse({ window: a.window, repo: a.repo, type: a.type, model: a.model, tool: a.tool, min: a.min_ms, limit: a.limit, cursor: a.cursor, sort: 'dur' });
    const r = listEvents(ctx.db, q, ctx.now());
    return {
      listKey: 'calls',
      payload: {
        total: r.total,
        total_is_lower_bound: r.totalCapped,
        calls: r.events.map((e) => ({
          event_id: e.id,
          session_id: e.sessionId,
          session_title: e.sessionTitle,
          source: sourceOf(e),
          repository: e.repository,
          type: e.type,
          name: e.name,
          model: e.model,
          tool: e.tool,
          status: e.status,
          start: e.ts === null ? null : new Date(e.ts).toISOString(),
          duration_ms: e.dur,
          ttft_ms: e.ttft,
          tokens_in: e.tokensIn,
          tokens_out: e.tokensOut,
          tokens_cached: e.tokensCached,
          error: e.error,
          link: ctx.links.session(e.sessionId, e.id),
        })),
        next_cursor: r.nextCursor,
      },
    };
  },
});
