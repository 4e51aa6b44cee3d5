import { formatCount, plural } from '../../shared/format-numbers';
import { NO_WORKSPACE_LABEL } from '../../shared/group-by-repository';
import { cutToWidth, textTable } from '../cli/text-table';
import { hasUnknownTokens, type ErrorGroupsResponse, type EventListResponse, type LatencyStatsResponse, type TriageCountsResponse } from '../../shared/api/triage';
import { WINDOW_WORDS } from '../../shared/time-window';

// Plain-text tables for `chronoscope slow | errors | stats`. Pure: the commands print what these return.

function ms(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  if (v < 1000) return `${Math.round(v)}ms`;
  if (v < 60_000) return `${(v / 1000).toFixed(v < 10_000 ? 2 : 1)}s`;
  const s = Math.floor(v / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function num(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : formatCount(v);
}

function when(ts: number | null): string {
  return ts === null ? '—' : new Date(ts).toISOString().replace('T', ' ').slice(0, 19);
}

/** One line of at most `n` terminal columns. */
function cut(s: string | null | undefined, n: number): string {
  return cutToWidth((s ?? '').replace(/\s+/g, ' '), n);
}

/** Columns padded to their widest cell (in terminal columns); numbers right-aligned. */
export function table(head: string[], rows: string[][], right: Set<number> = new Set()): string {
  return textTable(head, rows, { right }).join('\n') + '\n';
}

export function formatSlow(r: EventListResponse, counts: TriageCountsResponse | null): string {
  const rows = r.events.map((e) => [
    ms(e.dur),
    ms(e.ttft),
    e.type,
    cut(e.model ?? e.tool ?? e.name, 28),
    e.status === 'error' ? 'error' : '',
    when(e.ts),
    cut(e.repository ?? '', 24),
    cut(e.sessionTitle ?? e.sessionId, 36),
    `${e.sessionId}#${e.id}`,
  ]);
  let out = table(['dur', 'ttft', 'type', 'model/tool', 'status', 'start (UTC)', 'repository', 'session', 'session#event'], rows, new Set([0, 1]));
  out += `\n${num(r.events.length)} of ${plural(r.total, 'event')}`;
  if (counts) out += ` (all sessions: ${num(counts.slow.unique)} slower than ${counts.slow.minDur} ms, ${plural(counts.slow.raw, 'line')} counting replayed copies)`;
  return out + '\n';
}

export function formatErrors(r: ErrorGroupsResponse): string {
  const rows = r.groups.map((g) => [num(g.count), num(g.sessions), g.kind, cut(g.subject || '(none)', 24), cut(g.signature, 70), when(g.lastSeen)]);
  const kinds = Object.entries(r.byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${num(n)}`)
    .join(', ');
  return (
    table(['count', 'sessions', 'kind', 'subject', 'signature', 'last seen (UTC)'], rows, new Set([0, 1])) +
    `\n${num(r.groups.length)} of ${plural(r.totalGroups, 'group')}, ${plural(r.totalFailures, 'failure')} (${kinds || 'none'})\n`
  );
}

export function formatStats(r: LatencyStatsResponse): string {
  // model calls (by model or repository) have TTFT and token columns; a Copilot CLI call has tokens but no TTFT
  const models = r.by !== 'tool';
  const head = ['', 'count', 'err%', 'p50', 'p90', 'p99', 'max'];
  if (models) head.push('ttft p50', 'ttft p90', 'ttft p99', 'tok in', 'tok out', 'cached', 'out tok/s');
  const rows = r.rows.map((x) => {
    const cells = [cut(x.key || (r.by === 'repository' ? NO_WORKSPACE_LABEL : '(none)'), 32), num(x.count), `${(x.errorRate * 100).toFixed(1)}`, ms(x.dur?.p50), ms(x.dur?.p90), ms(x.dur?.p99), ms(x.dur?.max)];
    if (models) cells.push(ms(x.ttft?.p50), ms(x.ttft?.p90), ms(x.ttft?.p99), num(x.tokensIn), num(x.tokensOut), num(x.tokensCached), x.outputTokensPerSec === null ? '—' : String(x.outputTokensPerSec));
    return cells;
  });
  head[0] = r.by;
  const right = new Set(head.map((_, i) => i).filter((i) => i > 0));
  const unknownTokens = models && hasUnknownTokens(r.rows);
  const tokensNote = unknownTokens ? ' Tokens "—": no call of the row reported them (Copilot CLI writes input and cached tokens per session: `chronoscope usage`).' : '';
  return table(head, rows, right) + `\n${WINDOW_WORDS[r.window]}. ${r.percentileDefinition}${tokensNote}\n`;
}
