import { describe, expect, it } from 'vitest';
import { rowHref, rowLink } from './row-link';

describe('the row a console result opens', () => {
  it('a session column, with an event id beside it', () => {
    expect(rowLink(['id', 'session_id', 'dur'], [4211, 'a/b', 900])).toEqual({ sessionId: 'a/b', eventId: 4211 });
    expect(rowLink(['EVENT_ID', 'sid'], ['17', 's1'])).toEqual({ sessionId: 's1', eventId: 17 });
    expect(rowHref({ sessionId: 'a/b', eventId: 4211 })).toBe('/session/a%2Fb?event=4211');
  });

  it('the sessions table: its id is the session', () => {
    expect(rowLink(['id', 'title'], ['5e551011-0000-4000-8000-00000000c41d', 'fix'])).toEqual({ sessionId: '5e551011-0000-4000-8000-00000000c41d', eventId: null });
  });

  it('nothing to open: no session column, a number id alone, a NULL session', () => {
    expect(rowLink(['type', 'n'], ['tool_call', 3])).toBeNull();
    expect(rowLink(['id'], [12])).toBeNull();
    expect(rowLink(['session_id', 'id'], [null, 3])).toBeNull();
    expect(rowLink(['session_id', 'id'], ['s', 1.5])).toEqual({ sessionId: 's', eventId: null });
  });
});
