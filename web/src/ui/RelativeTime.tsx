import { formatDateTime, formatRelative } from './format';
import { useNow } from './useNow';

/** "5m ago", kept current; the exact local time in the tooltip and the machine-readable one in dateTime. */
export function RelativeTime({ ts, className }: { ts: number | null | undefined; className?: string }) {
  const now = useNow();
  if (ts === null || ts === undefined) return <span className={className}>—</span>;
  return (
    <time className={className} dateTime={new Date(ts).toISOString()} title={formatDateTime(ts)}>
      {formatRelative(ts, now)}
    </time>
  );
}
