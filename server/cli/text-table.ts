import stringWidth from 'string-width';

// The command line's tables measure text in terminal columns, not in UTF-16 units: a CJK character takes two
// columns (a session titled 로그 파일이… pushed every cell after it out of line), a combining mark none.
// string-width knows Unicode's East Asian Width table and emoji; a hand-written range list would age.

/** How many terminal columns `s` takes. */
export function displayWidth(s: string): number {
  return stringWidth(s);
}

/** `s` in at most `width` columns: whole, or cut with "…" as its last column. */
export function cutToWidth(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  let out = '';
  let used = 0;
  for (const ch of s) {
    const w = displayWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

/** `s` padded with spaces to `width` columns, on the right (text) or the left (numbers). */
export function padToWidth(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'right' ? fill + s : s + fill;
}

/**
 * Columns padded to their widest cell (at most `maxWidth` columns, longer cells cut), the columns in `right`
 * right-aligned, two spaces apart; `rule` adds a line of dashes under the header. One string per line.
 */
export function textTable(head: string[], rows: string[][], o: { right?: Set<number>; maxWidth?: number; rule?: boolean } = {}): string[] {
  const max = o.maxWidth;
  const cells = max === undefined ? [head, ...rows] : [head, ...rows].map((r) => r.map((c) => cutToWidth(c, max)));
  const widths = head.map((_, i) => Math.max(...cells.map((r) => displayWidth(r[i]))));
  const line = (r: string[]) => r.map((c, i) => padToWidth(c, widths[i], o.right?.has(i) ? 'right' : 'left')).join('  ').trimEnd();
  const [h, ...body] = cells.map(line);
  return o.rule ? [h, widths.map((w) => '-'.repeat(w)).join('  '), ...body] : [h, ...body];
}
