import { z } from 'zod';
import { SpanListQuery } from '../../../shared/api';
import { getSessionDetail } from '../../sessions/session-detail';
import { getEventDetail } from '../../spans/event-detail';
import { listSpans } from '../../spans/list-spans';
import { defineTool } from '../tool-context';
import { ToolInputError } from '../tool-output';
import { sessionIdArg } from './args';

const EVENT_TYPES = 'user_message, llm_request, agent_response, tool_call, subagent, hook, discovery, generic, turn_start, turn_end, child_session_ref, session_start';

export const getEventsTool = defineTool({
  name: 'get_events',
  title: 'Events of a session, as a span tree',
  description:
    'Reads the events of one session (and of the subagent sessions it started) in span-tree order, with depth, type, name, status, start time, duration, model, tokens, ' +
    'time to first token and every attribute (tool arguments and results, errors, user and assistant text), each attribute value cut to max_chars. ' +
    'Page with from (the row index to start at; next_from in the answer) or jump to around_event (an event id from search_sessions, slowest_calls or error_groups) to read what happened just before and after it. ' +
    'Narrow with types (comma-separated event types) and status (error for failures only).',
  input: {
    session_id: sessionIdArg,
    from: z.number().int().min(0, 'from is a row index, 0 or more').optional().describe('row index to start at (default 0)'),
    around_event: z.number().int().positive('around_event is an event id, a positive integer').optional().describe('an event id: the rows around it, the event in the middle'),
    limit: z.number().int().min(1, 'limit is at least 1').max(100, 'limit is at most 100').default(40).describe('rows (1–100, default 40)'),
    types: z.string().max(400).optional().describe(`only these event types, comma-separated: ${EVENT_TYPES}`),
    status: z.enum(['ok', 'error']).optional().describe('error: failed events only'),
    max_chars: z.number().int().min(50, 'max_chars is at least 50').max(20_000, 'max_chars is at most 20,000').default(2000).describe('each attribute value is cut to this many characters (50–20,000, default 2,000)'),
  },
  run(ctx, a) {
    if (a.from !== undefined && a.around_event !== undefined) throw new ToolInputError('pass either from or around_event, not both');
    if (!getSessionDetail(ctx.db, a.session_id)) throw new ToolInputError(`no session ${a.session_id} in the index: pass an id returned by search_sessions`);
    const base = { type: a.types, status: a.status, fold: 'none' as const, limit: String(a.limit) };
    let from = a.from ?? 0;
    if (a.around_event !== undefined) {
      const probe = listSpans(ctx.db, a.session_id, SpanListQuery.parse({ ...base, limit: '1', reveal: String(a.around_event) }));
      if (probe.revealIndex === null) throw new ToolInputError(`event ${a.around_event} is not among this session's rows${a.types || a.status ? ' with these filters' : ''}: check the id, or drop types/status`);
      from = Math.max(0, probe.revealIndex - Math.floor(a.limit / 2));
    }
    const page = listSpans(ctx.db, a.session_id, SpanListQuery.parse({ ...base, offset: String(from) }));
    const rows = page.rows.map((r) => {
      const d = getEventDetail(ctx.db, r.id, a.max_chars);
      const attrs: Record<string, unknown> = { ...d?.attrs };
      for (const [k, full] of Object.entries(d?.cut ?? {})) {
        const kept = String(attrs[k]);
        attrs[k] = `${kept}… [cut: ${full - kept.length} more characters]`;
      }
      return {
        row: r.index,
        event_id: r.id,
        depth: r.depth,
        type: r.type,
        name: r.name,
        status: r.status,
        start: r.start === null ? null : new Date(r.start).toISOString(),
        duration_ms: r.duration,
        session_id: r.sessionId,
        model: r.model,
        tool: r.tool,
        ttft_ms: r.ttft,
        tokens_in: r.tokensIn,
        tokens_out: r.tokensOut,
        replay_copy: r.replay,
        attrs,
      };
    });
    const next = from + page.rows.length;
    return {
      listKey: 'rows',
      payload: {
        session_id: a.session_id,
        total_rows: page.total,
        from,
        next_from: next < page.total ? next : null,
        link: ctx.links.session(a.session_id, a.around_event ?? rows[0]?.event_id),
        rows,
      },
    };
  },
});
