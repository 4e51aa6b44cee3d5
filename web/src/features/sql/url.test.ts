import { describe, expect, it } from 'vitest';
import { MAX_URL_SQL_CHARS, parseSqlSearch, serializeSqlSearch } from './url';

describe('SQL console URL state', () => {
  it('round-trips the statement in ?q=', () => {
    const sql = "SELECT * FROM sessions WHERE summary LIKE '%a&b=c%'";
    expect(parseSqlSearch(serializeSqlSearch({ q: sql }))).toEqual({ q: sql });
  });

  it('treats an empty q as none, and leaves statements too long for a URL out of it', () => {
    expect(parseSqlSearch(new URLSearchParams('q=%20'))).toEqual({ q: null });
    expect(serializeSqlSearch({ q: 'x'.repeat(MAX_URL_SQL_CHARS + 1) }).has('q')).toBe(false);
    expect(serializeSqlSearch({ q: null }).toString()).toBe('');
  });
});
