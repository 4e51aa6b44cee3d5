import { z } from 'zod';
import { listCustomizations } from '../../customizations/list-customizations';
import { getSessionDetail } from '../../sessions/session-detail';
import { defineTool } from '../tool-context';
import { ToolInputError } from '../tool-output';
import { windowArg } from './args';

export const customizationsTool = defineTool({
  name: 'customizations',
  title: 'Instructions, skills, agents and hooks: loaded or skipped, and why',
  description:
    'What Copilot\'s discovery found when sessions started: every instruction file, skill, custom agent, hook and prompt file it loaded, skipped (with the reason, e.g. name-mismatch, ' +
    'and what to change to fix it) or failed to read, the folders it searched, and in how many sessions. Answers "why was my instruction / skill / agent not used?". ' +
    'Pass session_id for one session; without it, across every session (skipped and failed first).',
  input: {
    session_id: z.string().min(1).max(200).optional().describe('one session; omit for all sessions'),
    window: windowArg,
    skipped_only: z.boolean().default(false).describe('only what was skipped or failed (default false)'),
  },
  run(ctx, a) {
    if (a.session_id !== undefined && !getSessionDetail(ctx.db, a.session_id)) throw new ToolInputError(`no session ${a.session_id} in the index: pass an id returned by search_sessions`);
    const r = listCustomizations(ctx.db, { sessionId: a.session_id, window: a.window, skippedOnly: a.skipped_only }, ctx.now());
    return {
      listKey: 'customizations',
      payload: {
        discovery_entries_read: r.discoveryEvents,
        ...(r.capped ? { note: 'only the newest discovery entries were read: narrow with window or session_id' } : {}),
        folders_searched: r.folders,
        customizations: r.rows.map((x) => ({
          kind: x.kind,
          name: x.name,
          status: x.status,
          reason: x.reason,
          fix: x.fix,
          sessions: x.sessions,
          session_ids: x.sessionIds,
          last_seen: x.lastSeen === null ? null : new Date(x.lastSeen).toISOString(),
          event_id: x.eventId,
          link: x.sessionIds[0] ? ctx.links.session(x.sessionIds[0], x.eventId) : null,
        })),
      },
    };
  },
});
