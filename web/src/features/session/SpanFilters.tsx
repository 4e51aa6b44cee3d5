import { useEffect, useRef, useState, type RefObject } from 'react';
import type { SpanOverview } from '../../../../shared/api';
import { formatCount } from '../../ui/format';
import { visibleText } from '../../ui/visible-text';
import { typeLabel } from './span-types';
import { hasFilters, type SessionViewState } from './url';

export interface SpanFiltersProps {
  view: SessionViewState;
  overview: SpanOverview | undefined;
  onChange: (next: Partial<SessionViewState>) => void;
  matched: number | null;
  total: number;
  inputRef: RefObject<HTMLInputElement | null>;
  onSeekMatch: (dir: 'next' | 'prev') => void;
  onExpandAll: () => void;
  /** null while filtering: every match shows, folded or not */
  onCollapseAll: (() => void) | null;
  /** the requests-only view is shown instead of the tree */
  requestsOnly: boolean;
  onToggleRequests: () => void;
}

const DURATIONS: [string, number | null][] = [
  ['any', null],
  ['≥ 100 ms', 100],
  ['≥ 1 s', 1000],
  ['≥ 5 s', 5000],
  ['≥ 30 s', 30_000],
  ['≥ 1 min', 60_000],
];

/** The in-session filters (all in the URL); a match keeps its ancestors visible, so context stays. */
export function SpanFilters({ view, overview, onChange, matched, total, inputRef, onSeekMatch, onExpandAll, onCollapseAll, requestsOnly, onToggleRequests }: SpanFiltersProps) {
  const [text, setText] = useState(view.q);
  const lastSent = useRef(view.q);
  useEffect(() => {
    // The URL changed from elsewhere (back button, a link): show it.
    if (view.q !== lastSent.current) {
      lastSent.current = view.q;
      setText(view.q);
    }
  }, [view.q]);
  useEffect(() => {
    if (text === lastSent.current) return;
    const t = setTimeout(() => {
      lastSent.current = text;
      onChange({ q: text });
    }, 250);
    return () => clearTimeout(t);
  }, [text, onChange]);

  const types = overview?.types ?? [];
  const filtered = hasFilters(view);
  return (
    <div className="span-filters" role="search" aria-label="Filter the spans of this session">
      <input
        ref={inputRef}
        className="input span-filter-text"
        type="search"
        placeholder="Filter text ( / )"
        aria-label="Filter by text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            lastSent.current = text;
            onChange({ q: text });
            onSeekMatch(e.shiftKey ? 'prev' : 'next');
          } else if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
        }}
      />
      <select className="select span-filter-select" aria-label="Filter by type" value={view.types.length === 1 ? view.types[0] : view.types.length > 1 ? '__many' : ''} onChange={(e) => onChange({ types: e.target.value ? [e.target.value] : [] })}>
        <option value="">All types</option>
        {view.types.length > 1 && <option value="__many">{view.types.map(typeLabel).join(', ')}</option>}
        {types.map((t) => (
          <option key={t.type} value={t.type}>
            {typeLabel(t.type)} ({formatCount(t.count)})
          </option>
        ))}
      </select>
      <div className="segmented" role="group" aria-label="Filter by status">
        {(
          [
            ['all', null],
            ['ok', 'ok'],
            ['errors', 'error'],
          ] as const
        ).map(([label, value]) => (
          <button key={label} type="button" className="segmented-btn" aria-pressed={view.status === value} onClick={() => onChange({ status: value })}>
            {label}
          </button>
        ))}
      </div>
      <select className="select span-filter-select is-narrow" aria-label="Minimum duration" value={view.minDur ?? ''} onChange={(e) => onChange({ minDur: e.target.value ? Number(e.target.value) : null })}>
        {DURATIONS.map(([label, v]) => (
          <option key={label} value={v ?? ''}>
            {label}
          </option>
        ))}
        {view.minDur !== null && !DURATIONS.some(([, v]) => v === view.minDur) && <option value={view.minDur}>≥ {view.minDur} ms</option>}
      </select>
      <select className="select span-filter-select" aria-label="Filter by model" value={view.model ?? ''} onChange={(e) => onChange({ model: e.target.value || null })}>
        <option value="">All models</option>
        {(overview?.models ?? []).map((m) => (
          <option key={m} value={m}>
            {visibleText(m)}
          </option>
        ))}
        {view.model && !(overview?.models ?? []).includes(view.model) && <option value={view.model}>{visibleText(view.model)}</option>}
      </select>
      <select className="select span-filter-select" aria-label="Filter by tool" value={view.tool ?? ''} onChange={(e) => onChange({ tool: e.target.value || null })}>
        <option value="">All tools</option>
        {(overview?.tools ?? []).map((t) => (
          <option key={t.tool} value={t.tool}>
            {visibleText(t.tool)} ({formatCount(t.count)})
          </option>
        ))}
        {view.tool && !(overview?.tools ?? []).some((t) => t.tool === view.tool) && <option value={view.tool}>{visibleText(view.tool)}</option>}
      </select>
      {filtered && (
        <span className="span-filter-result" aria-live="polite">
          {matched !== null ? `${formatCount(matched)} match${matched === 1 ? '' : 'es'}` : ''} · {formatCount(total)} rows
          <button type="button" className="btn btn-small" onClick={() => onSeekMatch('prev')} aria-label="Previous match">
            ↑
          </button>
          <button type="button" className="btn btn-small" onClick={() => onSeekMatch('next')} aria-label="Next match">
            ↓
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              lastSent.current = '';
              setText('');
              onChange({ types: [], status: null, minDur: null, model: null, tool: null, q: '' });
            }}
          >
            Clear filters
          </button>
        </span>
      )}
      <span className="span-filter-actions">
        {onCollapseAll && (
          <button type="button" className="btn btn-small" onClick={onCollapseAll} title="Fold every branch: one row per request (Shift+E)">
            Collapse all
          </button>
        )}
        <button type="button" className="btn btn-small" onClick={onExpandAll} title="Expand every branch (e)">
          Expand all
        </button>
        <button type="button" className="btn btn-small" aria-pressed={requestsOnly} onClick={onToggleRequests} title="One row per user request with its totals (r)">
          Requests only
        </button>
      </span>
    </div>
  );
}
