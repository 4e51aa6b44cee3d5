import { useQuery } from '@tanstack/react-query';
import type { BackfillProgress } from '../../../../shared/api';
import { useBackfillProgress, useStreamStatus } from '../../api/stream';
import { formatBytes, formatCount } from '../../ui/format';
import { healthQueryOptions } from './health.queries';

/** 0..1: by bytes when the total is known (files differ wildly in size), else by files. */
export function backfillFraction(p: BackfillProgress): number | null {
  if (p.bytesTotal > 0) return Math.min(1, p.bytesDone / p.bytesTotal);
  if (p.filesTotal > 0) return Math.min(1, p.filesDone / p.filesTotal);
  return null;
}

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
  const fraction = backfillFraction(p);
  const pct = fraction === null ? null : Math.floor(fraction * 100);
  const detail = `${formatCount(p.filesDone)} of ${formatCount(p.filesTotal)} files read (logs and companions), ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`;
  return (
    <div className="topbar-progress" role="status" title={detail}>
      <span className="topbar-progress-label">{p.state === 'starting' ? 'Starting indexer…' : `Indexing ${formatCount(p.filesDone)}/${formatCount(p.filesTotal)} files`}</span>
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
