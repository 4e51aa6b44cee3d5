import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Health } from '../../../../shared/api';
import { formatCompact, formatCount, plural } from '../../ui/format';
import { healthQueryOptions } from './health.queries';

export type HealthLevel = 'ok' | 'warn' | 'down';

/** warn: lines that could not be parsed, or a log folder that cannot be read. */
export function healthLevel(h: Health): HealthLevel {
  if (!h.ok) return 'down';
  if (h.badLines > 0 || h.fragments > 0 || h.roots.some((r) => !r.exists || r.error) || h.problems.some((p) => p.kind === 'unreadable' || p.kind === 'io' || p.kind === 'indexer' || p.kind === 'corrupt' || p.kind === 'disk_full')) return 'warn';
  return 'ok';
}

/** Events indexed and bad lines, in the top bar; links to /health. */
export function HealthIndicator() {
  const { data, error } = useQuery(healthQueryOptions());
  if (error && !data) {
    return (
      <Link to="/health" className="health-indicator is-down" title={error.message}>
        <span className="dot dot-danger" aria-hidden="true" /> Server unreachable
      </Link>
    );
  }
  if (!data) return <span className="health-indicator is-loading" aria-hidden="true" />;
  const level = healthLevel(data);
  const label = `Health: ${plural(data.events, 'event')} indexed, ${plural(data.badLines, 'bad line')}`;
  return (
    <Link to="/health" className={`health-indicator is-${level}`} aria-label={label} title={label}>
      <span className={`dot dot-${level === 'ok' ? 'success' : 'warn'}`} aria-hidden="true" />
      {/* the count the top bar drops first when it is short of room (global.css, the topbar-status container) */}
      <span className="health-events">
        <span className="num">{formatCompact(data.events)}</span>&nbsp;events
        <span className="sep" aria-hidden="true">·</span>
      </span>
      <span className={data.badLines > 0 ? 'health-bad' : 'muted'}>
        <span className="num">{formatCompact(data.badLines)}</span>&nbsp;bad
      </span>
    </Link>
  );
}
