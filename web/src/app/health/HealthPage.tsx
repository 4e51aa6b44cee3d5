import { useQuery } from '@tanstack/react-query';
import type { Health, Problem } from '../../../../shared/api';
import { Badge } from '../../ui/Badge';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatBytes, formatCount, formatDateTime, formatDuration, plural } from '../../ui/format';
import { RelativeTime } from '../../ui/RelativeTime';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { visibleText } from '../../ui/visible-text';
import { backfillFraction } from './BackfillIndicator';
import { healthQueryOptions } from './health.queries';

/** /health: what was indexed, from where, and every line or file that could not be read. */
export function HealthPage() {
  useDocumentTitle('Health');
  const { data, error, refetch, isPending } = useQuery(healthQueryOptions());
  return (
    <section className="page health-page">
      <header className="page-header">
        <h1>Health</h1>
      </header>
      {isPending && <Spinner label="Loading health" />}
      {error && <ErrorInline what="health" error={error} onRetry={() => void refetch()} />}
      {data && <HealthReport health={data} />}
    </section>
  );
}

const KIND_LABEL: Record<Problem['kind'], string> = {
  bad_line: 'bad line',
  fragment: 'fragment',
  unreadable: 'unreadable',
  io: 'I/O error',
  indexer: 'indexer',
  corrupt: 'damaged index',
  disk_full: 'disk full',
};

export function HealthReport({ health: h }: { health: Health }) {
  const fraction = backfillFraction(h.backfill);
  const stats: [string, string][] = [
    ['Sessions', formatCount(h.sessions)],
    ['Events', formatCount(h.events)],
    ['Log files', formatCount(h.files)],
    ['Companion files', formatCount(h.companions)],
    ['Workspaces', formatCount(h.workspaces)],
    ['Bad lines', formatCount(h.badLines)],
    ['Fragments', formatCount(h.fragments)],
    ['Index lag', h.indexLagMs === 0 ? 'caught up' : formatDuration(h.indexLagMs)],
    // The search file is written apart from the archive and refilled from it after a loss (server/search-index/).
    ['Search', h.search.eventsBehind === 0 ? 'caught up' : `${plural(h.search.eventsBehind, 'event')} behind`],
    ['Backfill', h.backfill.state === 'idle' ? 'done' : `${h.backfill.state}${fraction === null ? '' : ` ${Math.floor(fraction * 100)}%`}`],
  ];
  const unparsed = h.badLines + h.fragments;
  return (
    <>
      <dl className="stat-grid">
        {stats.map(([k, v]) => (
          <div key={k} className={`stat${(k === 'Bad lines' || k === 'Fragments') && v !== '0' ? ' is-warn' : ''}`}>
            <dt>{k}</dt>
            <dd className="num">{v}</dd>
          </div>
        ))}
      </dl>

      <h2 className="section-title">Server</h2>
      <dl className="kv">
        <dt>Version</dt>
        <dd>
          {h.version} (schema {h.schemaVersion}){h.demo && <Badge tone="info">demo corpus</Badge>}
        </dd>
        <dt>Database</dt>
        <dd className="mono">{h.dbPath}</dd>
        <dt>Backfill</dt>
        <dd>
          {formatCount(h.backfill.filesDone)} of {formatCount(h.backfill.filesTotal)} log and companion files read, {formatBytes(h.backfill.bytesDone)} of{' '}
          {formatBytes(h.backfill.bytesTotal)}
        </dd>
      </dl>

      {h.forwarding && <Forwarding f={h.forwarding} />}

      <h2 className="section-title">Log folders</h2>
      {h.roots.length === 0 ? (
        <EmptyState title="No log folders are watched." />
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {h.roots.map((r) => (
              <tr key={r.path}>
                <td className="mono wrap">{visibleText(r.path)}</td>
                <td>{r.error ? <span className="text-danger">{r.error}</span> : r.exists ? 'watching' : <span className="text-warn">does not exist</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2 className="section-title">
        Problems{' '}
        <span className="section-count">
          {h.problems.length === 0
            ? ''
            : `newest ${formatCount(h.problems.length)}${unparsed > h.problems.length ? ` of ${formatCount(unparsed)} unparsed lines` : ''}`}
        </span>
      </h2>
      {h.problems.length === 0 ? (
        <EmptyState title="No problems: every line read so far was parsed." />
      ) : (
        <table className="data-table problems-table">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">File</th>
              <th scope="col" className="num">
                Line
              </th>
              <th scope="col">Reason</th>
              <th scope="col" className="nowrap">
                Seen
              </th>
            </tr>
          </thead>
          <tbody>
            {h.problems.map((p, i) => (
              <tr key={`${p.fileId ?? p.path}:${p.lineNo ?? 'file'}:${i}`}>
                <td>
                  <Badge tone={p.kind === 'bad_line' || p.kind === 'fragment' ? 'warn' : 'danger'}>{KIND_LABEL[p.kind]}</Badge>
                </td>
                <td className="mono wrap" title={p.byteOffset === null ? undefined : `byte offset ${formatCount(p.byteOffset)}`}>
                  {visibleText(p.path)}
                </td>
                <td className="num">{p.lineNo === null ? '—' : formatCount(p.lineNo)}</td>
                <td className="wrap">{visibleText(p.reason)}</td>
                <td className="nowrap" title={formatDateTime(p.at)}>
                  <RelativeTime ts={p.at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Forwarding to a collector (serve --otlp-endpoint): where it is, how far it got, the last failure. */
function Forwarding({ f }: { f: NonNullable<Health['forwarding']> }) {
  const state = { starting: 'starting', sending: 'sending', idle: 'up to date', retrying: 'retrying' }[f.state];
  return (
    <>
      <h2 className="section-title">Forwarding</h2>
      <dl className="kv" aria-label="Forwarding">
        <dt>Collector</dt>
        <dd className="mono">
          {visibleText(f.endpoint)} <span className="muted">({f.protocol}{f.content ? ', with content' : ', no prompts or tool content'})</span>
        </dd>
        <dt>State</dt>
        <dd className={f.state === 'retrying' ? 'text-warn' : undefined}>
          {state}: {plural(f.sentSpans, 'span')} sent{f.pending > 0 ? `, ${plural(f.pending, 'event')} to go` : ''}
          {f.droppedSpans > 0 && <span className="text-danger">, {formatCount(f.droppedSpans)} refused by the collector</span>}
        </dd>
        {f.lastError && (
          <>
            <dt>Last error</dt>
            <dd className="text-danger">
              {visibleText(f.lastError.message)} <span className="muted">({formatDateTime(f.lastError.at)})</span>
            </dd>
          </>
        )}
      </dl>
    </>
  );
}
