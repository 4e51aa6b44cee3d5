import { z } from 'zod';
import { sourceOf } from '../../../shared/api';
import { SearchQuery } from '../../../shared/api';
import { ApiError } from '../../http/errors';
import { withRepoFilter } from '../../search/repo-filter';
import { searchSessions } from '../../search/search-sessions';
import { ACTIVE_MS, defineTool } from '../tool-context';
import { ToolInputError } from '../tool-output';
import { cursorArg, limitArg, repoArg, windowArg } from './args';

export const searchSessionsTool = defineTool({
  name: 'search_sessions',
  title: 'Search past Copilot sessions',
  description:
    'Full-text search over every indexed GitHub Copilot Chat session (user prompts, model responses, tool arguments and results, errors, subagents, file paths). ' +
    'Finds substrings like grep does, including code identifiers and Chinese; words are ANDed, "quoted phrases" match exactly, -word excludes, and filters such as type:tool_call, tool:run_in_terminal, model:gpt-4.1, status:error narrow it. ' +
    'Returns sessions grouped by repository, best first, each with a snippet of its best match, where it matched, the event id of that match and a dashboard link. ' +
    'Sessions written to in the last 2 minutes are left out unless include_active is true, so you do not find your own running session. ' +
    'A common word is ranked from its newest 6,000 matches (totals_exact false): narrow it, or pass all_matches to read every one. Use get_session or get_events next with an id from here.',
  input: {
    query: z.string().min(1, 'query is required: the words or "phrase" to find').max(2000, 'a query is at most 2,000 characters').describe('what to find'),
    repo: repoArg,
    window: windowArg,
    limit: limitArg(30, 10),
    cursor: cursorArg,
    include_active: z.boolean().default(false).describe('also return sessions written to in the last 2 minutes (default false)'),
    all_matches: z
      .boolean()
      .default(false)
      .describe('read every match instead of the newest 6,000 (slower for common words); use it when totals_exact is false and what you look for is not in the answer'),
  },
  run(ctx, a) {
    const q = SearchQuery.parse({ q: withRepoFilter(a.query, a.repo), window: a.window ?? 'all', limit: a.limit, perGroup: a.limit, cursor: a.cursor, depth: a.all_matches ? 'all' : 'first' });
    let r;
    try {
      r = searchSessions(ctx.db, q, ctx.now());
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) throw new ToolInputError(err.message);
      throw err;
    }
    const since = ctx.now() - ACTIVE_MS;
    let leftOutActive = 0;
    const groups = r.groups
      .map((g) => ({
        repository: g.repository,
        sessions: g.sessions
          .filter((s) => {
            const active = !a.include_active && s.lastActivity !== null && s.lastActivity > since;
            if (active) leftOutActive++;
            return !active;
          })
          .map((s) => {
            const best = s.hits[0] ?? null;
            return {
              session_id: s.id,
              title: s.title,
              source: sourceOf(s),
              branch: s.branch,
              last_activity: s.lastActivity === null ? null : new Date(s.lastActivity).toISOString(),
              events: s.eventCount,
              matched_in: s.kinds.map((k) => `${k.kind} ${k.count}`).join(', '),
              best_event_id: best?.eventId ?? null,
              // a prompt match is in what the model call was sent, not in the llm_request's own fields
              best_match_in: best ? (best.inSubagent ? `subagent session ${best.sessionId}` : best.kind === 'prompt' ? 'prompt' : (best.eventType ?? best.kind)) : null,
              snippet: best?.snippet ? `${best.snippet.cutStart ? '…' : ''}${best.snippet.text}${best.snippet.cutEnd ? '…' : ''}` : null,
              link: ctx.links.session(s.id, best?.eventId),
            };
          }),
      }))
      .filter((g) => g.sessions.length > 0);
    return {
      listKey: 'groups',
      payload: {
        query: a.query,
        window: q.window,
        sessions_found: r.totals.sessions - leftOutActive,
        totals_exact: r.totals.exact,
        // the matching events read; when totals_exact is false, later ones were not (all_matches reads them)
        scanned_events: r.totals.scannedEvents,
        left_out_active: leftOutActive,
        // the newest archived events search cannot find yet (it is catching up): an empty answer may be premature
        not_yet_searchable: r.notYetSearchable,
        groups,
        next_cursor: r.nextCursor,
      },
    };
  },
});
