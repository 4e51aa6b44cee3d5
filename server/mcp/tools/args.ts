import { z } from 'zod';
import { TimeWindow } from '../../../shared/api';

// Argument shapes several tools share, with messages that say what to pass instead.

export const windowArg = TimeWindow.optional().describe('how far back: 24h, 7d, 30d, 90d or all (default all)');
export const repoArg = z.string().max(400).optional().describe('only sessions of this repository (owner/name as listed in results); "" = sessions with no repository');
export const sessionIdArg = z.string().min(1, 'session_id is required: a session id from search_sessions or get_session').max(200).describe('a session id, as returned by search_sessions');
export const cursorArg = z.string().max(400).optional().describe('the next_cursor of the previous answer, to get the next page');

export function limitArg(max: number, dflt: number) {
  return z.number().int().min(1, 'limit is at least 1').max(max, `limit is at most ${max}`).default(dflt).describe(`how many items (1–${max}, default ${dflt})`);
}
