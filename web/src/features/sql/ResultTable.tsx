import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SqlResult } from '../../../../shared/api';
import { useNavigate } from 'react-router';
import { useShortcuts } from '../../ui/keys/useShortcuts';
import { CELL_PREVIEW_CHARS, cellPreview, numericColumns, visibleText } from './cell-text';
import { rowHref, rowLink } from './row-link';

// Bound on the results themselves (the query box beside them takes j and k as text), listed in the `?` overlay.
const RESULT_KEYS = [
  { keys: ['j', 'ArrowDown'], does: 'Next row' },
  { keys: ['k', 'ArrowUp'], does: 'Previous row' },
  { keys: ['ArrowLeft', 'ArrowRight'], does: 'Previous or next column' },
  { keys: ['Enter'], does: 'Open the session (at its event) that the row names' },
];

const ROW_HEIGHT = 28;
const CHAR_PX = 7.2;

/** Column widths from the header and the first rows' previews, clamped: no layout pass over 1000 rows. */
function columnWidths(r: SqlResult): number[] {
  const sample = r.rows.slice(0, 200);
  return r.columns.map((c, i) => {
    const longest = Math.max(c.length, ...sample.map((row) => Math.min(cellPreview(row[i]).text.length, 60)));
    return Math.round(Math.min(440, Math.max(64, longest * CHAR_PX + 20)));
  });
}

/**
 * The rows of a console result, virtualized (DESIGN house style 7): only the rows on screen are in the DOM.
 * Cells are one-line text previews; the selected cell's whole value (as the server bounded it) shows below.
 * Arrow keys move the selection. Plain props: no network.
 */
export function ResultTable({ result }: { result: SqlResult }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [sel, setSel] = useState<{ row: number; col: number } | null>(null);
  const widths = useMemo(() => columnWidths(result), [result]);
  const numeric = useMemo(() => numericColumns(result.columns, result.rows), [result]);
  const virtualizer = useVirtualizer({
    count: result.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const indexWidth = Math.max(3, String(result.rows.length).length) * CHAR_PX + 20;

  const navigate = useNavigate();
  useShortcuts('Query results', RESULT_KEYS);
  const onKeyDown = (e: KeyboardEvent) => {
    if (!result.rows.length || e.ctrlKey || e.metaKey || e.altKey) return;
    const cur = sel ?? { row: 0, col: 0 };
    if (e.key === 'Enter') {
      const link = sel ? rowLink(result.columns, result.rows[sel.row]) : null;
      if (link) {
        e.preventDefault();
        navigate(rowHref(link));
      }
      return;
    }
    const moves: Record<string, [number, number]> = { ArrowDown: [1, 0], j: [1, 0], ArrowUp: [-1, 0], k: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1] };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    const next = {
      row: Math.min(result.rows.length - 1, Math.max(0, cur.row + (sel ? m[0] : 0))),
      col: Math.min(result.columns.length - 1, Math.max(0, cur.col + (sel ? m[1] : 0))),
    };
    setSel(next);
    virtualizer.scrollToIndex(next.row, { align: 'auto' });
  };

  const selected = sel && result.rows[sel.row] ? result.rows[sel.row][sel.col] : undefined;
  return (
    <div className="sql-result">
      <div className="sql-result-scroll" ref={scrollRef} tabIndex={0} onKeyDown={onKeyDown} aria-label="Query results: j/k or arrow keys move between cells, Enter opens the row’s session">
        <table className="data-table sql-result-table" style={{ width: indexWidth + widths.reduce((a, b) => a + b, 0) }} aria-rowcount={result.rows.length + 1}>
          <colgroup>
            <col style={{ width: indexWidth }} />
            {widths.map((w, i) => (
              <col key={i} style={{ width: w }} />
            ))}
            {/* takes whatever width is left, so that narrow results do not stretch their columns */}
            <col />
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              <th className="num sql-rownum" scope="col">
                #
              </th>
              {result.columns.map((c, i) => (
                <th key={i} scope="col" className={numeric[i] ? 'num' : undefined} title={c.length > 40 ? c.slice(0, 400) : undefined}>
                  {visibleText(c)}
                </th>
              ))}
              <th className="sql-filler" aria-hidden="true" />
            </tr>
          </thead>
          <tbody>
            {padTop > 0 && <tr aria-hidden="true" style={{ height: padTop }} />}
            {items.map((item) => {
              const row = result.rows[item.index];
              return (
                <tr key={item.index} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }}>
                  <td className="num sql-rownum">{item.index + 1}</td>
                  {row.map((v, col) => {
                    const p = cellPreview(v);
                    const isSel = sel?.row === item.index && sel.col === col;
                    return (
                      <td
                        key={col}
                        className={`sql-cell${numeric[col] ? ' num' : ''}${p.isNull ? ' is-null' : ''}${isSel ? ' is-selected' : ''}`}
                        onClick={() => setSel({ row: item.index, col })}
                        aria-selected={isSel}
                      >
                        {p.text}
                      </td>
                    );
                  })}
                  <td className="sql-filler" aria-hidden="true" />
                </tr>
              );
            })}
            {padBottom > 0 && <tr aria-hidden="true" style={{ height: padBottom }} />}
          </tbody>
        </table>
      </div>
      {sel && selected !== undefined && (
        <section className="sql-cell-detail" aria-label="Selected cell">
          <header>
            <span className="mono">{visibleText(result.columns[sel.col])}</span>
            <span className="muted"> · row {sel.row + 1}</span>
            {selected !== null && String(selected).length > CELL_PREVIEW_CHARS && <span className="muted"> · {String(selected).length.toLocaleString()} characters</span>}
            <button type="button" className="btn btn-small" onClick={() => setSel(null)}>
              Close
            </button>
          </header>
          <pre className="sql-cell-full">{selected === null ? 'NULL' : visibleText(String(selected))}</pre>
        </section>
      )}
    </div>
  );
}
