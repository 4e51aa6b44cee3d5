import type { SqlResult, SqlValue } from '../../../../shared/api';

/**
 * A cell opened by a spreadsheet as a formula would run it (`=HYPERLINK(…)`, `@SUM(…)`): log text starting
 * with = + - @ or a tab/CR is prefixed with an apostrophe (OWASP's advice for CSV injection). Numbers are left alone.
 */
function csvCell(v: SqlValue): string {
  if (v === null) return '';
  let s = typeof v === 'number' ? String(v) : v;
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with a header row and CRLF line ends. */
export function toCsv(r: Pick<SqlResult, 'columns' | 'rows'>): string {
  return [r.columns, ...r.rows].map((row) => row.map((v) => csvCell(v as SqlValue)).join(',')).join('\r\n') + '\r\n';
}

/** An array of objects keyed by column name; a repeated column name gets a suffix so that no value is lost. */
export function toJsonRecords(r: Pick<SqlResult, 'columns' | 'rows'>): string {
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (const c of r.columns) {
    const n = seen.get(c) ?? 0;
    seen.set(c, n + 1);
    names.push(n === 0 ? c : `${c}_${n + 1}`);
  }
  const records = r.rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i]])));
  return JSON.stringify(records, null, 2) + '\n';
}

/** Saves text as a file through a temporary object URL (nothing leaves the machine). */
export function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
