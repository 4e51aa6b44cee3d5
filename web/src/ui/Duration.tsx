import { formatDuration } from './format';

/** A span or request duration ("4.21s"), exact milliseconds in the tooltip. */
export function Duration({ ms, className }: { ms: number | null | undefined; className?: string }) {
  if (ms === null || ms === undefined) return <span className={className}>—</span>;
  return (
    <span className={['num', className].filter(Boolean).join(' ')} title={`${ms.toLocaleString('en-US')} ms`}>
      {formatDuration(ms)}
    </span>
  );
}
