// Enter on a row of a console result opens what the row names: its session (a `session_id`, `sid` or, from the
// sessions table, `id` column), at its event when it also names one (`event_id`, or `id` beside a session column
// of events). Columns are matched by name, case-insensitively, as a person writes them in a query.

export interface RowLink {
  sessionId: string;
  eventId: number | null;
}

const SESSION_COLUMNS = ['session_id', 'sessionid', 'sid'];
const EVENT_COLUMNS = ['event_id', 'eventid'];

const col = (columns: readonly string[], names: readonly string[]) => columns.findIndex((c) => names.includes(c.toLowerCase()));

const asEventId = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) && Number(v) > 0 ? Number(v) : null);

export function rowLink(columns: readonly string[], row: readonly unknown[]): RowLink | null {
  const s = col(columns, SESSION_COLUMNS);
  if (s < 0) {
    // `SELECT id, title FROM sessions`: an id that is not a number is a session id
    const id = col(columns, ['id']);
    const v = id >= 0 ? row[id] : null;
    return typeof v === 'string' && v !== '' && asEventId(v) === null ? { sessionId: v, eventId: null } : null;
  }
  const sessionId = row[s];
  if (typeof sessionId !== 'string' || sessionId === '') return null;
  const e = col(columns, EVENT_COLUMNS);
  const idCol = e >= 0 ? e : col(columns, ['id']);
  return { sessionId, eventId: idCol >= 0 ? asEventId(row[idCol]) : null };
}

export const rowHref = (l: RowLink) => `/session/${encodeURIComponent(l.sessionId)}${l.eventId === null ? '' : `?event=${l.eventId}`}`;
