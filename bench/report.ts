import type { MachineFacts } from './lib/machine';

export interface Row {
  measurement: string;
  ours: string;
  baseline: string;
  ratio: string;
  target: string;
  met: boolean | null;
}

/**
 * A query row's verdict: its latency target, and against rg (faster) or jq (≥ 100× faster) when its target names
 * one. `baselineMs` null: that tool did not run (not installed, `--only memory`), so the row is neither met nor
 * missed unless its own latency already misses. `found` / `baselineFound`: for a search, the sessions it found and
 * the files rg listed; a search that finds nothing where rg found files is missed, and a search for what no file
 * holds measures nothing (neither met nor missed).
 */
export function queryRowMet(o: { tool: 'rg' | 'jq' | null; status: number; p95: number; target: number; baselineMs: number | null; found?: number | null; baselineFound?: number | null }): boolean | null {
  if (o.status !== 200 || !(o.p95 <= o.target)) return false;
  if (o.baselineFound != null && o.found != null) {
    if (o.baselineFound === 0) return null;
    if (o.found === 0) return false;
  }
  if (o.tool === null) return true;
  if (o.baselineMs === null) return null;
  return o.tool === 'jq' ? o.baselineMs / o.p95 >= 100 : o.baselineMs > o.p95;
}

/** The target queryRowMet judges, as the row states it. */
export function queryRowTarget(tool: 'rg' | 'jq' | null, targetMs: number): string {
  return tool === 'jq' ? `p95 ≤ ${targetMs} ms, ≥ 100× jq` : tool === 'rg' ? `p95 ≤ ${targetMs} ms, faster than rg` : `p95 ≤ ${targetMs} ms`;
}

/** "1 file", "12,345 sessions" */
export function countOf(n: number, one: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : `${one}s`}`;
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms < 10 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** BENCHMARKS.md: machine facts, then one table row per measurement, then notes (what was tried for misses). */
export function renderReport(o: { facts: MachineFacts; corpus: string; when: string; command: string; rows: Row[]; notes: string[]; seconds: number }): string {
  const f = o.facts;
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`${o.command}\` on ${o.when} in ${(o.seconds / 60).toFixed(1)} minutes. Every baseline ran in the same run, on the same files.`,
    'Latencies are over HTTP against the built server in its own process (p50 / p95 over the stated runs).',
    '',
    `- Machine: ${f.cores} cores (${f.cpu}), ${f.memoryGiB} GiB, ${f.platform}; load average at start ${f.loadAverage.join(' / ')}`,
    `- Node ${f.node}, SQLite ${f.sqlite}`,
    `- Corpus: ${o.corpus}`,
    '',
    '| measurement | ours | baseline (same run) | ratio | target | met |',
    '| --- | --- | --- | --- | --- | --- |',
    ...o.rows.map((r) => `| ${r.measurement} | ${r.ours} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.met === null ? '—' : r.met ? 'yes' : '**no**'} |`),
    '',
    '## Notes',
    '',
    ...o.notes.map((n) => `- ${n}`),
    '',
  ];
  return lines.join('\n');
}
