import { useQuery } from '@tanstack/react-query';
import type { BackfillProgress, BackfillShare } from '../../../../shared/api';
import { useBackfillProgress, useStreamStatus } from '../../api/stream';
import { formatBytes, formatCount } from '../../ui/format';
import { healthQueryOptions } from './health.queries';

/** 0..1: by bytes when the total is known (files differ wildly in size), else by files. */
export function backfillFraction(p: BackfillShare): number | null {
  if (p.bytesTotal > 0) return Math.min(1, p.bytesDone / p.bytesTotal);
  if (p.filesTotal > 0) return Math.min(1, p.filesDone / p.filesTotal);
  return null;
}

/** "done", "41%", or "none" for a part with no files. Floored, so that 99.9% never reads as done. */
function sharePct(s: BackfillShare): string {
  if (s.filesTotal === 0) return 'none';
  if (s.filesDone >= s.filesTotal) return 'done';
  return `${Math.floor((backfillFraction(s) ?? 0) * 100)}%`;
}

/**
 * The backfill goes this week's sessions first (server/ingest/backfill-order.ts): "This week: done; older: 41%"
 * tells the user what is already searchable. Null until the backfill has listed its files.
 */
export function backfillSplit(p: BackfillProgress): string | null {
  if (!p.recent || !p.older) return null;
  return `This week: ${sharePct(p.recent)}; older: ${sharePct(p.older)}`;
}

/**
 * The split in a dozen characters, for a top bar too narrow for the sentence and the bar beside the navigation
 * (1024 px): "Week: done · 41%" (the figure is the older part's; "none" for a week without sessions), or "Week: 99%"
 * while this week is read.
 */
export function backfillSplitShort(p: BackfillProgress): string | null {
  if (!p.recent || !p.older) return null;
  const week = sharePct(p.recent);
  return week === 'done' || week === 'none' ? `Week: ${week} · ${sharePct(p.older)}` : `Week: ${week}`;
}

const shareDetail = (s: BackfillShare) => `${formatCount(s.filesDone)} of ${formatCount(s.filesTotal)} files read, ${formatBytes(s.bytesDone)} of ${formatBytes(s.bytesTotal)}`;

/**
 * Backfill progress from the event stream (the health response until the first message), or the stream
 * being down. Renders nothing once the index is caught up; it sits left of the other top-bar items so its
 * appearing moves nothing else.
 */
export function BackfillIndicator() {
  const streamed = useBackfillProgress();
  const status = useStreamStatus();
  const health = useQuery(healthQueryOptions());
  const p = streamed ?? health.data?.backfill ?? null;

  if (status === 'reconnecting') {
    return (
      <div className="topbar-progress is-offline" role="status" title="The live connection to the Chronoscope server dropped; retrying">
        <span className="dot dot-danger" aria-hidden="true" /> Reconnecting…
      </div>
    );
  }
  if (!p || p.state === 'idle') return null;
  return <BackfillStatus progress={p} />;
}

/** The indicator for one progress report (no data fetching: what the tests render). */
export function BackfillStatus({ progress: p }: { progress: BackfillProgress }) {
  const fraction = backfillFraction(p);
  const pct = fraction === null ? null : Math.floor(fraction * 100);
  const split = backfillSplit(p);
  const short = backfillSplitShort(p);
  // Files are log and companion files read (the index's own count of log files is on the health page).
  const detail = `${p.recent && p.older ? `This week: ${shareDetail(p.recent)}; older: ${shareDetail(p.older)}` : shareDetail(p)} (logs and companions)`;
  const label = p.state === 'starting' ? 'Starting indexer…' : (split ?? `Indexing ${formatCount(p.filesDone)}/${formatCount(p.filesTotal)} files`);
  return (
    <div className={`topbar-progress${split ? ' has-split' : ''}`} role="status" title={detail}>
      <span className="topbar-progress-label">{label}</span>
      {short && p.state !== 'starting' && (
        <span className="topbar-progress-short" aria-hidden="true">
          {short}
        </span>
      )}
      <span
        className="progress"
        role="progressbar"
        aria-label="Backfill"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct ?? undefined}
        aria-valuetext={pct === null ? 'starting' : `${pct}%: ${detail}`}
      >
        <span className="progress-fill" style={{ width: `${pct ?? 0}%` }} />
      </span>
      <span className="topbar-progress-pct num">{pct === null ? '' : `${pct}%`}</span>
    </div>
  );
}
