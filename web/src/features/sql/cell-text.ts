import type { SqlValue } from '../../../../shared/api';

/** Characters shown in a table cell; the full value (bounded by the server) is in the cell's detail view. */
export const CELL_PREVIEW_CHARS = 200;

// C0/C1 controls (ANSI escapes start with ESC), DEL, zero-width and bidi format characters: shown as visible
// escapes, so that log text can neither hide part of a row nor display in another order than it is stored.
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (ch) => `\\u{${ch.codePointAt(0)!.toString(16).padStart(4, '0')}}`);
}

/** One line for a table cell: NULL shown as such, newlines and tabs as spaces, escapes visible, cut short. */
export function cellPreview(v: SqlValue): { text: string; isNull: boolean; cut: boolean } {
  if (v === null) return { text: 'NULL', isNull: true, cut: false };
  const s = String(v);
  const head = s.length > CELL_PREVIEW_CHARS ? s.slice(0, CELL_PREVIEW_CHARS) : s;
  return { text: visibleText(head.replace(/[\n\r\t]/g, ' ')) + (head.length < s.length ? '…' : ''), isNull: false, cut: head.length < s.length };
}

/** A column is numeric when every non-null value in it is a number (right-aligned). */
export function numericColumns(columns: string[], rows: SqlValue[][]): boolean[] {
  return columns.map((_, i) => {
    let seen = false;
    for (const row of rows) {
      const v = row[i];
      if (v === null) continue;
      if (typeof v !== 'number') return false;
      seen = true;
    }
    return seen;
  });
}
