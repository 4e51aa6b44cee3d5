import { describe, expect, it } from 'vitest';
import { toCsv, toJsonRecords } from './export';

describe('toCsv', () => {
  it('quotes commas, quotes and newlines, leaves NULL empty, and ends lines with CRLF', () => {
    const csv = toCsv({ columns: ['a', 'b', 'c'], rows: [['x,y', 'say "hi"', null], ['line\nbreak', 3, ' padded ']] });
    expect(csv).toBe('a,b,c\r\n"x,y","say ""hi""",\r\n"line\nbreak",3," padded "\r\n');
  });

  it('defuses spreadsheet formulas in log text (CSV injection), but not in numbers', () => {
    const csv = toCsv({ columns: ['v'], rows: [['=HYPERLINK("http://evil.example")'], ['@SUM(A1)'], ['+1'], ['-2'], [-2], ['\tx']] });
    expect(csv.split('\r\n').slice(1, -1)).toEqual(['"\'=HYPERLINK(""http://evil.example"")"', "'@SUM(A1)", "'+1", "'-2", '-2', "'\tx"]);
  });
});

describe('toJsonRecords', () => {
  it('makes one object per row, keeping repeated column names apart', () => {
    const json = JSON.parse(toJsonRecords({ columns: ['id', 'id', 'n'], rows: [['a', 'b', 1]] }));
    expect(json).toEqual([{ id: 'a', id_2: 'b', n: 1 }]);
  });
});
