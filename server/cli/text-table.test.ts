import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth, padToWidth, textTable } from './text-table';

describe('text tables in terminal columns', () => {
  it('counts a CJK character as two columns, a combining mark as none', () => {
    expect([displayWidth('abc'), displayWidth('로그 파일'), displayWidth('日志落盘问题'), displayWidth('e\u0301'), displayWidth('')]).toEqual([3, 9, 12, 1, 0]);
  });

  it('cuts to the columns given, the … included, never through a wide character', () => {
    expect(cutToWidth('日志落盘问题', 12)).toBe('日志落盘问题');
    expect(cutToWidth('日志落盘问题', 11)).toBe('日志落盘问…');
    expect(cutToWidth('日志落盘问题', 8)).toBe('日志落…');
    expect(cutToWidth('abcdef', 4)).toBe('abc…');
    expect(displayWidth(cutToWidth('a日志落盘问题', 8))).toBe(8);
  });

  it('pads to columns', () => {
    expect(padToWidth('日志', 6)).toBe('日志  ');
    expect(padToWidth('42', 5, 'right')).toBe('   42');
  });

  it('lines up every column after a CJK cell', () => {
    const lines = textTable(
      ['n', 'session', 'id'],
      [
        ['1', '로그 파일이 너무 커서', 'a1'],
        ['22', 'CI failure', 'b2'],
      ],
      { right: new Set([0]) },
    );
    // 로그 파일이 너무 커서 is 21 columns: 13 characters, 8 of them wide
    expect(lines).toEqual([' n  session                id', ' 1  로그 파일이 너무 커서  a1', '22  CI failure             b2']);
    const idColumn = lines.map((l) => displayWidth(l.slice(0, l.lastIndexOf(' ') + 1)));
    expect(new Set(idColumn).size).toBe(1);
  });

  it('cuts cells wider than maxWidth and rules the header', () => {
    expect(textTable(['title'], [['日志落盘问题日志落盘问题']], { maxWidth: 7, rule: true })).toEqual(['title', '-------', '日志落…']);
  });
});
