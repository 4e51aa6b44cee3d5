import type { SqlValue } from '../../../../shared/api';
import { visibleText } from '../../ui/visible-text';

export { visibleText };

/** Characters shown in a table cell; the full value (bounded by the server) is in the cell's detail view. */
export const CELL_PREVIEW_CHARS = 200;

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
