import type { FailureKind, TriageEvent } from '../../../../shared/api';
import { formatDuration } from '../../ui/format';
import { visibleText } from '../../ui/visible-text';

/** A histogram bucket's label: its upper edge ("≤ 5ms", "≤ 2.00s"); the open last bucket: "> 16m 40s". */
export function bucketLabel(lo: number, hi: number): string {
  if (hi >= Number.MAX_SAFE_INTEGER) return `> ${formatDuration(lo)}`;
  return `≤ ${formatDuration(hi)}`;
}

/** "(lo, hi]" in words, for tooltips and aria labels. */
export function bucketRange(lo: number, hi: number): string {
  if (lo < 0) return `0 – ${formatDuration(hi)}`;
  if (hi >= Number.MAX_SAFE_INTEGER) return `over ${formatDuration(lo)}`;
  return `over ${formatDuration(lo)}, up to ${formatDuration(hi)}`;
}

/** Compact token counts: 950, 12.3k, 1.2M. */
export function formatTokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e4 ? 1 : 0)}k`;
  return `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)}M`;
}

export function formatPercent(rate: number): string {
  if (rate === 0) return '0%';
  if (rate < 0.001) return '<0.1%';
  return `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)}%`;
}

/** What a row of the event list names: the model of a model call, the tool of a tool call, else the name. */
export function subjectOfEvent(e: Pick<TriageEvent, 'type' | 'model' | 'tool' | 'name'>): string {
  if (e.type === 'llm_request') return e.model !== null ? visibleText(e.model) : '(no model)';
  if (e.type === 'tool_call' || e.type === 'subagent') return visibleText(e.tool ?? e.name ?? '');
  return visibleText(e.name ?? e.type);
}

/** A type's name in words; an unknown type (log text) as it is, made visible. */
export function typeLabelOf(type: string): string {
  return Object.hasOwn(TYPE_LABEL, type) ? TYPE_LABEL[type] : visibleText(type);
}

export const KIND_LABEL: Record<FailureKind, string> = {
  tool: 'Tool',
  model: 'Model',
  subagent: 'Subagent',
  hook: 'Hook',
  discovery: 'Discovery',
  other: 'Other',
};

const TYPE_LABEL: Record<string, string> = {
  llm_request: 'model call',
  tool_call: 'tool call',
  subagent: 'subagent',
  hook: 'hook',
  discovery: 'discovery',
  generic: 'generic',
};

/** A time series bucket's label: "Mar 11 14:00" for hours, "Mar 11" for days (local time). */
export function bucketTime(t: number, interval: 'hour' | 'day'): string {
  const d = new Date(t);
  const day = d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  return interval === 'day' ? day : `${day} ${String(d.getHours()).padStart(2, '0')}:00`;
}

/** Points of a sparkline polyline in a w×h box; a flat line at the bottom when every value is 0. */
export function sparklinePoints(values: readonly number[], w: number, h: number): string {
  if (values.length === 0) return '';
  const max = Math.max(...values, 1);
  const step = values.length > 1 ? w / (values.length - 1) : 0;
  return values.map((v, i) => `${round(i * step)},${round(h - 1 - (v / max) * (h - 2))}`).join(' ');
}

const round = (x: number) => Math.round(x * 10) / 10;
