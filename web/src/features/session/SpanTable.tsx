import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { CriticalStep, RequestBreakdownRow, SpanRow, TimeAxis } from '../../../../shared/api';
import { RequestRowBar } from './Breakdown';
import { formatDuration } from '../../ui/format';
import { useFocusOnArrival } from '../../ui/keys/useFocusOnArrival';
import { visibleText } from '../../ui/visible-text';
import { spanKind, typeLabel } from './span-types';
import { barGeometry, formatOffset, idleBands, layoutRulerLabels, rulerTicks, type IdleBand } from './time-axis';
import { useTextMeasure } from './useTextMeasure';
import { useWheelZoom, type WheelZoomHandlers } from './useWheelZoom';

export const ROW_HEIGHT = 24;
const HEADER_HEIGHT = 26;
const INDENT = 14;
const MAX_INDENT_LEVELS = 28;

export interface SpanTableProps {
  /** visible rows in this view */
  total: number;
  /** the row at an index, when its window has arrived */
  getRow: (index: number) => SpanRow | undefined;
  axis: TimeAxis | null;
  zoom: readonly [number, number];
  selectedId: number | null;
  onSelect: (row: SpanRow, index: number) => void;
  onOpen: (row: SpanRow, index: number) => void;
  onToggle: (row: SpanRow) => void;
  /** rows on screen changed (to fetch their windows) */
  onRangeChange: (start: number, end: number) => void;
  /** scroll this row into view when `nonce` changes */
  scrollTo: { index: number; nonce: number; align?: 'center' | 'auto' } | null;
  /** a fresh value whenever rows arrive, so memoized rows re-render */
  dataStamp: unknown;
  /** extra content in the tree column's header (counts) */
  headerNote?: ReactNode;
  /** the critical path of the selected request, by event id, when highlighted */
  critical?: ReadonlyMap<number, CriticalStep> | null;
  /** each request's totals by its user_message id: the request rows show them */
  requestBreakdowns?: ReadonlyMap<number, RequestBreakdownRow> | null;
  /** a double-click on a row's bar: zoom to that span */
  onZoomToRow?: (row: SpanRow) => void;
  /** ctrl/⌘ + wheel over the waterfall, or the wheel over the ruler */
  wheel?: WheelZoomHandlers;
}

/**
 * The span tree and its waterfall, one virtualized list (DESIGN house style 7): each row is the tree cell
 * and the bar beside it, so they scroll as one and the DOM holds only the rows on screen. Plain props: the
 * windows of rows are fetched by ConnectedSpanView.
 */
export function SpanTable(p: SpanTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: p.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    // Render in the next frame rather than synchronously inside each scroll event.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { onRangeChange } = p;
  useEffect(() => {
    onRangeChange(first, last);
  }, [first, last, onRangeChange]);

  const scrollTo = p.scrollTo;
  useLayoutEffect(() => {
    if (scrollTo && scrollTo.index < p.total) virtualizer.scrollToIndex(scrollTo.index, { align: scrollTo.align ?? 'auto' });
    // only when asked (nonce), or once the rows it names exist
  }, [scrollTo?.nonce, p.total >= (scrollTo?.index ?? 0) + 1]); // eslint-disable-line react-hooks/exhaustive-deps

  useFocusOnArrival(scrollRef, p.total > 0);
  const wfWidth = useWaterfallWidth(scrollRef);
  const ruler = useMemo(() => (p.axis ? rulerTicks(p.axis, p.zoom, Math.max(2, Math.floor(wfWidth / 90))) : null), [p.axis, p.zoom, wfWidth]);
  const idle = useMemo(() => (p.axis ? idleBands(p.axis, p.zoom) : []), [p.axis, p.zoom]);
  const measure = useTextMeasure(scrollRef, '.span-ruler');
  const labels = useMemo(() => layoutRulerLabels(ruler?.ticks ?? [], idle, wfWidth, measure), [ruler, idle, wfWidth, measure]);
  useWheelZoom(scrollRef, p.wheel);
  const critical = p.critical ?? null;

  return (
    <div className={`span-table${critical ? ' has-critical' : ''}`} ref={scrollRef} role="tree" aria-label="Spans of this session" aria-multiselectable="false" tabIndex={0}>
      <TableHeader note={p.headerNote} ruler={ruler} idle={idle} labels={labels} />
      {/* getTotalSize() is the rows' height alone (without scrollMargin): less the header, the last row could not be
          scrolled into view until it was rendered (its transform then stretched the scroll area), so a jump to the
          newest row stopped one row short whenever the virtualizer read the maximum offset first. */}
      <div className="span-table-body" style={{ height: virtualizer.getTotalSize() }}>
        <GridLayer ruler={ruler} idle={idle} />
        {items.map((item) => {
          const row = p.getRow(item.index);
          const top = item.start - HEADER_HEIGHT;
          if (!row) return <div key={item.key} className="span-row is-loading" style={{ transform: `translateY(${top}px)` }} aria-hidden="true" />;
          return (
            <SpanRowView
              key={row.id}
              row={row}
              index={item.index}
              top={top}
              total={p.total}
              selected={row.id === p.selectedId}
              axis={p.axis}
              zoom={p.zoom}
              onSelect={p.onSelect}
              onOpen={p.onOpen}
              onToggle={p.onToggle}
              critical={critical?.get(row.id) ?? null}
              totals={p.requestBreakdowns?.get(row.id) ?? null}
              onZoomToRow={p.onZoomToRow}
            />
          );
        })}
      </div>
    </div>
  );
}

const pct = (x: number) => `${(x * 100).toFixed(3)}%`;

type Ruler = ReturnType<typeof rulerTicks> | null;
type Labels = ReturnType<typeof layoutRulerLabels>;

/** The column header and ruler: drawn again only when the axis, zoom or width change, not on every scroll. */
const TableHeader = memo(function TableHeader({ note, ruler, idle, labels }: { note: ReactNode; ruler: Ruler; idle: IdleBand[]; labels: Labels }) {
  return (
    <div className="span-table-header" style={{ height: HEADER_HEIGHT }}>
      <div className="span-tree-head">
        <span>Span</span>
        {note}
      </div>
      <div className="span-ruler" aria-hidden="true">
        {idle.map((b, i) => (
          <div key={`idle-${i}`} className="span-idle-band" style={{ left: pct(b.x0), width: pct(b.x1 - b.x0) }} title={`idle ${formatDuration(b.ms)} (squeezed)`}>
            {labels.idle[i] && <span className="span-ruler-label">{labels.idle[i]!.text}</span>}
          </div>
        ))}
        {ruler?.ticks.map((t, i) => (
          <div key={t.t} className="span-tick" style={{ left: pct(t.x) }}>
            {labels.ticks[i] && <span className="span-ruler-label">{t.label}</span>}
          </div>
        ))}
      </div>
    </div>
  );
});

/** Tick lines and idle columns behind the rows, the full height of the list. */
const GridLayer = memo(function GridLayer({ ruler, idle }: { ruler: Ruler; idle: IdleBand[] }) {
  return (
    <div className="span-grid-layer" aria-hidden="true">
      {idle.map((b, i) => (
        <div key={`idle-${i}`} className="span-idle-column" style={{ left: pct(b.x0), width: pct(b.x1 - b.x0) }} />
      ))}
      {ruler?.ticks.map((t) => <div key={t.t} className="span-grid-line" style={{ left: pct(t.x) }} />)}
    </div>
  );
});

/** Width of the waterfall column, for choosing how many ticks fit. */
function useWaterfallWidth(scrollRef: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = scrollRef.current?.querySelector('.span-ruler');
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, [scrollRef]);
  return width;
}

interface RowViewProps {
  row: SpanRow;
  index: number;
  top: number;
  total: number;
  selected: boolean;
  axis: TimeAxis | null;
  zoom: readonly [number, number];
  onSelect: SpanTableProps['onSelect'];
  onOpen: SpanTableProps['onOpen'];
  onToggle: SpanTableProps['onToggle'];
  critical: CriticalStep | null;
  totals: RequestBreakdownRow | null;
  onZoomToRow: SpanTableProps['onZoomToRow'];
}

const SpanRowView = memo(function SpanRowView({ row, index, top, total, selected, axis, zoom, onSelect, onOpen, onToggle, critical, totals, onZoomToRow }: RowViewProps) {
  const kind = spanKind(row.type, row.tool);
  const failed = row.status === 'error';
  const hasChildren = row.childCount > 0;
  const indent = Math.min(row.depth, MAX_INDENT_LEVELS) * INDENT;
  const name = visibleText(row.name);
  const label = visibleText(row.label);
  return (
    <div
      className={`span-row${selected ? ' is-selected' : ''}${row.match ? '' : ' is-context'}${critical ? ' is-critical' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      role="treeitem"
      aria-label={`${name}${label ? ` ${label}` : ''}${failed ? ' (failed)' : ''}${critical ? ' (on the critical path)' : ''}`}
      aria-level={row.depth + 1}
      aria-setsize={total}
      aria-posinset={index + 1}
      aria-selected={selected}
      aria-expanded={hasChildren ? !row.collapsed : undefined}
      data-event-id={row.id}
      onClick={() => onSelect(row, index)}
      onDoubleClick={() => onOpen(row, index)}
    >
      <div className="span-tree-cell" style={{ paddingLeft: 6 + indent }}>
        {hasChildren ? (
          <button
            type="button"
            className="span-toggle"
            tabIndex={-1}
            aria-label={row.collapsed ? `Expand ${name}` : `Collapse ${name}`}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(row);
            }}
          >
            <span className={`span-chevron${row.collapsed ? '' : ' is-open'}`} aria-hidden="true" />
          </button>
        ) : (
          <span className="span-toggle-spacer" />
        )}
        <span className={`span-dot t-${kind}${failed ? ' is-error' : ''}`} title={typeLabel(row.type)} />
        <span className={`span-name${failed ? ' text-danger' : ''}`}>{name}</span>
        {row.collapsed && <span className="span-count">+{row.descendants}</span>}
        <span className="span-label">{label}</span>
        {row.orphan && (
          <span className="span-flag" title="Its parent span is not in this session or its child logs: shown as a root">
            orphan
          </span>
        )}
        {row.replay && (
          <span className="span-flag" title="A copy of an event other sessions hold too (replayed core event or broadcast message)">
            replay
          </span>
        )}
        {totals && row.duration === 0 ? <RequestRowBar totals={totals} /> : <span className="span-dur">{row.duration > 0 ? formatDuration(row.duration) : ''}</span>}
      </div>
      <div
        className="span-wf-cell"
        onDoubleClick={
          onZoomToRow &&
          ((e) => {
            // the bar's double-click zooms; the tree cell's opens the details
            e.stopPropagation();
            onSelect(row, index);
            onZoomToRow(row);
          })
        }
      >
        {axis && <SpanBar row={row} kind={kind} axis={axis} zoom={zoom} />}
        {axis && critical && <CriticalSegment step={critical} axis={axis} zoom={zoom} />}
      </div>
    </div>
  );
});

function SpanBar({ row, kind, axis, zoom }: { row: SpanRow; kind: string; axis: TimeAxis; zoom: readonly [number, number] }) {
  if (row.start === null) return null;
  const own = barGeometry(axis, zoom, row.start, row.start + row.duration);
  // A request (user_message) is an instant; its bar is the work under it, drawn lighter.
  const extent = row.subtreeEnd !== null && row.subtreeEnd > row.start + row.duration && row.childCount > 0 ? barGeometry(axis, zoom, row.start, row.subtreeEnd) : null;
  const failed = row.status === 'error';
  const ttft = kind === 'model' && row.ttft !== null && row.duration > 0 ? Math.min(1, row.ttft / row.duration) : null;
  const offscreen = own.left > 1 || own.left + own.width < 0;
  const offset = formatOffset(row.start - axis.start, 1);
  return (
    <>
      {extent && !(extent.left > 1 || extent.left + extent.width < 0) && (
        <div className={`span-extent t-${kind}`} style={{ left: pct(extent.left), width: pct(extent.width) }} />
      )}
      {!offscreen && (
        <div
          className={`span-bar t-${kind}${failed ? ' is-error' : ''}${own.width === 0 ? ' is-instant' : ''}`}
          style={{ left: pct(own.left), width: pct(own.width) }}
          title={`${visibleText(row.name)}: starts +${offset}${row.duration > 0 ? `, ${formatDuration(row.duration)}` : ''}${row.ttft !== null ? `, first token after ${formatDuration(row.ttft)}` : ''}`}
        >
          {ttft !== null && <span className="span-ttft" style={{ left: pct(ttft) }} />}
        </div>
      )}
    </>
  );
}

/** The part of a span on the critical path, under its bar. */
function CriticalSegment({ step, axis, zoom }: { step: CriticalStep; axis: TimeAxis; zoom: readonly [number, number] }) {
  const g = barGeometry(axis, zoom, step.from, step.to);
  if (g.left > 1 || g.left + g.width < 0) return null;
  return <div className="span-critical-seg" style={{ left: pct(g.left), width: pct(g.width) }} title={`on the critical path for ${formatDuration(step.to - step.from)}`} />;
}
