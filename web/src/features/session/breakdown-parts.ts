// The parts of a request's breakdown as the stacked bar and its legend show them, in the order the time is
// counted (RequestBreakdown in shared/api/request-timeline.ts). Pure: the one place that says which part is
// shown how, so the bar, the legend and the row agree.
import type { CallBreakdown, RequestBreakdown } from '../../../../shared/api';

export type PartKind = 'ttft' | 'generation' | 'model' | 'tool' | 'idle';

export interface Part {
  kind: PartKind;
  label: string;
  /** ms; null = unknown (no call of the request reports a ttft), shown as "—", never as 0 */
  ms: number | null;
  /** share of the request's time, 0..1 (0 for unknown) */
  share: number;
}

const LABELS: Record<PartKind, string> = {
  ttft: 'Time to first token',
  generation: 'Generation',
  model: 'Model, no ttft',
  tool: 'Tools',
  idle: 'Idle',
};

/** The request's parts; "Model, no ttft" only when some call lacks a ttft. */
export function requestParts(b: Omit<RequestBreakdown, 'calls' | 'callsTotal'>): Part[] {
  const total = b.end - b.start;
  const part = (kind: PartKind, ms: number | null): Part => ({ kind, label: LABELS[kind], ms, share: ms === null || total <= 0 ? 0 : ms / total });
  const parts = [part('ttft', b.ttft), part('generation', b.generation)];
  if (b.model > 0 || b.ttft === null) parts.push(part('model', b.model));
  parts.push(part('tool', b.tool), part('idle', b.idle));
  return parts;
}

/** One model call's parts: its ttft and generation, or the whole call when it reports no ttft. */
export function callParts(c: CallBreakdown): Part[] {
  const share = (ms: number | null) => (ms === null || c.dur <= 0 ? 0 : Math.min(1, ms / c.dur));
  if (c.ttft === null) return [{ kind: 'ttft', label: LABELS.ttft, ms: null, share: 0 }, { kind: 'generation', label: LABELS.generation, ms: null, share: 0 }, { kind: 'model', label: 'Whole call', ms: c.dur, share: 1 }];
  return [
    { kind: 'ttft', label: LABELS.ttft, ms: c.ttft, share: share(c.ttft) },
    { kind: 'generation', label: LABELS.generation, ms: c.generation, share: share(c.generation) },
  ];
}
