import { useState } from 'react';
import { Link } from 'react-router';
import type { SessionDetail, SpanOverview } from '../../../../shared/api';
import { Badge } from '../../ui/Badge';
import { formatCompact, formatCount, formatCredits, formatDateTime, formatDuration, plural } from '../../ui/format';
import { CustomizationsPanel } from '../customizations/CustomizationsPanel';
import { ExportMenu } from '../export/ExportMenu';
import { CopyButton } from '../../ui/CopyButton';
import { visibleText } from '../../ui/visible-text';
import { SearchBreadcrumb } from './SearchBreadcrumb';
import { lacksShutdown, NO_SHUTDOWN_TEXT, NO_SHUTDOWN_TITLE, SourceBadge } from '../../ui/SourceBadge';

export interface SessionHeaderProps {
  detail: SessionDetail;
  overview: SpanOverview | undefined;
  onSelectEvent: (id: number) => void;
  onShowErrors: () => void;
  /** the search that led here (its URL parameters): a breadcrumb back to it */
  from?: string | null;
}

/** Who, where and how much: the session's facts, its requests with their tool-loop iterations, its children. */
export function SessionHeader({ detail: d, overview, onSelectEvent, onShowErrors, from = null }: SessionHeaderProps) {
  // The lists render only when opened: a session with 500 requests and 250 children stays quick to show.
  const [requestsOpen, setRequestsOpen] = useState(false);
  const [childrenOpen, setChildrenOpen] = useState(false);
  const span = d.firstTs !== null && d.lastTs !== null ? d.lastTs - d.firstTs : null;
  const stats = overview?.stats;
  const requests = overview?.requests ?? [];
  const counts = d.countsByType;
  const noShutdown = lacksShutdown(d);
  return (
    <header className="session-header">
      {from && <SearchBreadcrumb from={from} />}
      <div className="session-title-row">
        <h1 className="session-title" title={visibleText(d.title ?? d.id)}>
          {d.title !== null ? visibleText(d.title) : <span className="muted">Untitled session</span>}
        </h1>
        <SourceBadge source={d.source} />
        {d.isChild && <Badge tone="info">{d.label !== null ? visibleText(d.label) : 'child'}</Badge>}
        {d.logDeleted && (
          <Badge tone="warn" title="Copilot deleted the log; the index kept it">
            log deleted
          </Badge>
        )}
        {d.parentId &&
          (d.parentInIndex ? (
            <span className="session-parent">
              {d.isChild ? 'child of' : 'forked from'} <Link to={`/session/${encodeURIComponent(d.parentId)}`}>{visibleText(d.parentId.slice(0, 8))}…</Link>
            </span>
          ) : (
            // No page to link to: the whole id, to look for in another workspace.
            <span className="session-parent" title="The parent session is not in the index: another workspace, or deleted before it was read">
              {d.isChild ? 'child of' : 'forked from'} <span className="mono">{visibleText(d.parentId)}</span> (not in the index)
              <CopyButton text={d.parentId} what="parent session id" />
            </span>
          ))}
        {d.imported && (
          <Badge tone="info" title="Read from an OTLP file (chronoscope import), not from Copilot's own logs">
            imported
          </Badge>
        )}
        <ExportMenu sessionId={d.id} />
      </div>
      <div className="session-meta">
        <span className="nowrap">
          <span className="mono" title="session id">
            {visibleText(d.id)}
          </span>
          <CopyButton text={d.id} what="session id" />
        </span>
        {d.repository && <span title="repository">{visibleText(d.repository)}</span>}
        {d.branch && <span title="branch">⎇ {visibleText(d.branch)}</span>}
        {d.firstTs !== null && (
          <span title="first and last activity">
            {formatDateTime(d.firstTs)}
            {span !== null && ` · ${formatDuration(span)}`}
          </span>
        )}
        {d.copilotVersion && <span>Copilot {visibleText(d.copilotVersion)}</span>}
        {d.vscodeVersion && <span>VS Code {visibleText(d.vscodeVersion)}</span>}
      </div>
      <dl className="session-stats">
        <Stat label="Events" value={formatCount(d.eventCount)} title="Every entry of this session's log and its child logs (the sessions list and search show the same figure)" />
        <Stat label="Requests" value={formatCount(overview?.requestsTotal ?? counts.user_message ?? 0)} />
        <Stat label="Model calls" value={formatCount(counts.llm_request ?? 0)} />
        <Stat label="Tool calls" value={formatCount(counts.tool_call ?? 0)} />
        <Stat
          label="Errors"
          value={
            (stats?.errors ?? d.errorCount) > 0 ? (
              <button type="button" className="link-btn text-danger" onClick={onShowErrors} title="Show only the failed events">
                {formatCount(stats?.errors ?? d.errorCount)}
              </button>
            ) : (
              '0'
            )
          }
        />
        {noShutdown ? (
          <Stat
            label="Tokens"
            value={
              <>
                {formatCompact(d.tokensOut)} out · <span className="text-warn">{NO_SHUTDOWN_TEXT}</span>
              </>
            }
            title={NO_SHUTDOWN_TITLE}
          />
        ) : (
          <Stat label="Tokens" value={`${formatCompact(d.tokensIn)} in · ${formatCompact(d.tokensOut)} out`} title={`${formatCount(d.tokensIn)} in, ${formatCount(d.tokensOut)} out, ${formatCount(d.tokensCached)} cached`} />
        )}
        {d.tokensIn > 0 && !noShutdown && (
          <Stat label="Cached input" value={`${Math.round((d.tokensCached / d.tokensIn) * 100)}%`} title={`${formatCount(d.tokensCached)} of ${formatCount(d.tokensIn)} input tokens were read from the prompt cache`} />
        )}
        <Stat
          label="Credits"
          value={noShutdown ? 'unknown' : formatCredits(d.credits)}
          title={
            noShutdown
              ? NO_SHUTDOWN_TITLE
              : d.credits === null
                ? 'no model call of this session carries credit data (copilotUsageNanoAiu)'
                : `${formatCredits(d.credits)} AI credits ≈ US$${(d.credits * 0.01).toFixed(2)}`
          }
        />
        {d.models.length > 0 && <Stat label="Models" value={visibleText(d.models.join(', '))} />}
        {d.slowest && (
          <Stat
            label="Slowest call"
            value={
              <button type="button" className="link-btn" onClick={() => onSelectEvent(d.slowest!.eventId)} title="Select it in the tree">
                {visibleText(d.slowest.name)} · {formatDuration(d.slowest.dur)}
              </button>
            }
          />
        )}
        {stats && stats.orphans > 0 && <Stat label="Orphans" value={formatCount(stats.orphans)} title="Events whose parent span is not in this session: shown as roots" />}
        {stats && stats.hiddenRepeats > 0 && <Stat label="Repeats hidden" value={formatCount(stats.hiddenRepeats)} title="Lines repeated within the same file (dup = 2)" />}
      </dl>
      <div className="session-lists">
          {requests.length > 0 && (
            <details className="session-requests" onToggle={(e) => setRequestsOpen(e.currentTarget.open)}>
              <summary>
                Tool-loop iterations per request
                <span className="muted">
                  {' '}
                  ({requests.length < (overview?.requestsTotal ?? 0) ? `showing ${requests.length} of ${formatCount(overview!.requestsTotal)}` : formatCount(requests.length)})
                </span>
                <span className="iteration-strip" aria-hidden="true">
                  {requests.slice(0, 40).map((r) => (
                    <span key={r.id} className={`iteration-chip${r.errors > 0 ? ' has-error' : ''}`}>
                      {r.iterations}
                    </span>
                  ))}
                </span>
              </summary>
              {requestsOpen && (
                <table className="data-table requests-table">
                  <thead>
                    <tr>
                      <th className="num">#</th>
                      <th>Request</th>
                      <th className="num">Iterations</th>
                      <th className="num">Errors</th>
                      <th className="num">Duration</th>
                    </tr>
                  </thead>
                  <tbody>
                    {requests.map((r, i) => (
                      <tr key={r.id}>
                        <td className="num">{i + 1}</td>
                        <td className="requests-label">
                          <button type="button" className="link-btn" onClick={() => onSelectEvent(r.id)}>
                            {r.label ? visibleText(r.label) : '(empty message)'}
                          </button>
                        </td>
                        <td className="num">
                          {r.iterations}
                          {r.unfinished > 0 && (
                            <span className="text-warn" title="turn_start without turn_end: the iteration threw">
                              {' '}
                              ({r.unfinished} unfinished)
                            </span>
                          )}
                        </td>
                        <td className={`num${r.errors > 0 ? ' text-danger' : ''}`}>{r.errors}</td>
                        <td className="num">{r.start !== null && r.end !== null ? formatDuration(r.end - r.start) : '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </details>
          )}
          {d.children.length > 0 && (
            <details className="session-children" onToggle={(e) => setChildrenOpen(e.currentTarget.open)}>
              <summary>
                Child sessions{' '}
                <span className="muted">
                  {d.children.length < d.childCount ? `(showing ${formatCount(d.children.length)} of ${formatCount(d.childCount)})` : `(${formatCount(d.children.length)})`}
                </span>
              </summary>
              {childrenOpen && (
                <ul className="children-list">
                  {d.children.map((c) => (
                    <li key={c.id}>
                      <Link to={`/session/${encodeURIComponent(c.id)}`}>{visibleText(c.label ?? c.id)}</Link>
                      <span className="muted">
                        {' '}
                        {c.title ? `${visibleText(c.title)} · ` : ''}
                        {plural(c.eventCount, 'event')}
                      </span>
                      {c.errorCount > 0 && <span className="text-danger"> · {plural(c.errorCount, 'error')}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </details>
          )}
          <CustomizationsPanel sessionId={d.id} />
      </div>
    </header>
  );
}

function Stat({ label, value, title }: { label: string; value: React.ReactNode; title?: string }) {
  return (
    <div className="session-stat" title={title}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
