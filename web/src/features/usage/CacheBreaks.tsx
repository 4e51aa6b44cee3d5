import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { CACHE_BREAK_DROP, type CacheQuery } from '../../../../shared/api';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount } from '../../ui/format';
import { RelativeTime } from '../../ui/RelativeTime';
import { visibleText } from '../../ui/visible-text';
import { cacheOptions } from './usage.queries';

const pct = (v: number) => `${Math.round(v * 100)}%`;
/** Breaks listed before "Show all": the newest ones. */
const SHOWN = 15;

/** Calls whose cached share of input fell sharply against the previous call of the same conversation. */
export function CacheBreaks({ query }: { query: CacheQuery }) {
  const q = useQuery(cacheOptions(query));
  const [showAll, setShowAll] = useState(false);
  if (q.isError) return <ErrorInline error={q.error} onRetry={() => void q.refetch()} what="cache breaks" />;
  if (!q.data) return null;
  const r = q.data;
  return (
    <section className="usage-cache" aria-labelledby="cache-breaks-heading">
      <h2 id="cache-breaks-heading" className="usage-section-title">
        Cache breaks <span className="muted">· {formatCount(r.totalBreaks)} of {formatCount(r.callsCompared)} calls compared</span>
      </h2>
      <p className="muted usage-note">
        A break: the cached share of a call&apos;s input fell by {pct(CACHE_BREAK_DROP)} or more against the previous call of the same conversation (same
        session log, same model). Subagents and title or summary requests have their own logs and are compared only with themselves.
      </p>
      {r.breaks.length === 0 ? (
        <p className="muted">No cache breaks in this window.</p>
      ) : (
        <table className="data-table usage-table" aria-label="Cache breaks">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Session</th>
              <th scope="col">Model</th>
              <th scope="col" className="num">
                Input tokens
              </th>
              <th scope="col" className="num">
                Cached before → now
              </th>
            </tr>
          </thead>
          <tbody>
            {(showAll ? r.breaks : r.breaks.slice(0, SHOWN)).map((b) => (
              <tr key={b.eventId}>
                <td>
                  <RelativeTime ts={b.ts} />
                </td>
                <td className="usage-cache-session">
                  <Link to={`/session/${encodeURIComponent(b.sessionId)}?event=${b.eventId}`}>{visibleText(b.sessionTitle ?? b.sessionId)}</Link>
                </td>
                <td className="mono">{b.model === null ? '—' : visibleText(b.model)}</td>
                <td className="num">{formatCount(b.tokensIn)}</td>
                <td className="num">
                  {pct(b.previousShare)} → <strong className="text-danger">{pct(b.share)}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {r.breaks.length > SHOWN && (
        <button type="button" className="btn btn-small usage-show-all" onClick={() => setShowAll(!showAll)}>
          {showAll ? `Show the newest ${SHOWN}` : `Show all ${formatCount(r.breaks.length)}${r.totalBreaks > r.breaks.length ? ` newest of ${formatCount(r.totalBreaks)}` : ''}`}
        </button>
      )}
    </section>
  );
}
