import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import type { RequestTotals } from '../../../../shared/api';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCompact, formatCount, formatCredits, formatDuration } from '../../ui/format';
import { useFocusOnArrival } from '../../ui/keys/useFocusOnArrival';
import { useListKeys } from '../../ui/keys/useListKeys';
import { Spinner } from '../../ui/Spinner';
import { visibleText } from '../../ui/visible-text';
import { sessionRequestsOptions } from './session.queries';

/** The requests-only view: one row per user request with the totals of the work under it (server/spans/request-totals.ts). */
export function ConnectedRequestsView({ sessionId, onOpen }: { sessionId: string; onOpen: (eventId: number) => void }) {
  const q = useQuery(sessionRequestsOptions(sessionId));
  if (q.isError) return <ErrorInline error={q.error} what="the requests" onRetry={() => void q.refetch()} />;
  if (q.isPending)
    return (
      <div className="span-loading">
        <Spinner label="Loading the requests" />
      </div>
    );
  if (q.data.requests.length === 0) return <EmptyState title="No user requests in this session" />;
  return <RequestsView requests={q.data.requests} onOpen={onOpen} />;
}

/** "1,200 in, 80 out"; an unknown figure says why ("—" in the cell: a Copilot CLI call writes input tokens per session only). */
function tokensTitle(r: RequestTotals): string {
  const figure = (n: number | null, what: string) => (n === null ? `${what} not reported by its model calls` : `${formatCount(n)} ${what}`);
  return `${figure(r.tokensIn, 'in')}, ${figure(r.tokensOut, 'out')}${r.tokensIn === null ? ' (Copilot CLI writes input tokens per session: see Usage)' : ''}`;
}

export function RequestsView({ requests, onOpen }: { requests: readonly RequestTotals[]; onOpen: (eventId: number) => void }) {
  const tableRef = useRef<HTMLTableElement>(null);
  const { selected, setSelected } = useListKeys({
    title: 'Requests',
    noun: 'request',
    count: requests.length,
    onOpen: (i) => onOpen(requests[i].id),
    opens: 'Open the selected request in the tree',
    reveal: (i) => tableRef.current?.querySelector<HTMLElement>(`tr[data-index="${i}"] [data-list-row]`)?.focus(),
  });
  useFocusOnArrival(tableRef, requests.length > 0);
  // no request has credit data: the column would be a row of dashes
  const credits = requests.some((r) => r.credits !== null);
  return (
    <div className="requests-view">
      <table className="data-table requests-only" ref={tableRef} tabIndex={-1} aria-label="Requests of this session">
        <thead>
          <tr>
            <th className="num">#</th>
            <th>Request</th>
            <th className="num">Duration</th>
            <th className="num" title="Model calls">
              Calls
            </th>
            <th className="num" title="Tool calls">
              Tools
            </th>
            <th className="num" title="Input / output tokens of its model calls">
              Tokens
            </th>
            <th className="num">Errors</th>
            {credits && (
              <th className="num" title="AI credits of its model calls (copilotUsageNanoAiu)">
                Credits
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {requests.map((r, i) => (
            <tr key={r.id} data-index={i} className={i === selected ? 'is-selected' : undefined} aria-selected={i === selected}>
              <td className="num muted">{i + 1}</td>
              <td className="requests-label">
                <button
                  type="button"
                  className="link-btn"
                  data-list-row=""
                  aria-current={i === selected ? 'true' : undefined}
                  title={r.label ? visibleText(r.label) : undefined}
                  onFocus={() => setSelected(i)}
                  onClick={() => onOpen(r.id)}
                >
                  {r.label ? visibleText(r.label) : '(empty message)'}
                </button>
              </td>
              <td className="num">{r.duration === null ? '—' : formatDuration(r.duration)}</td>
              <td className="num">{formatCount(r.modelCalls)}</td>
              <td className="num">{formatCount(r.toolCalls)}</td>
              <td className="num nowrap" title={tokensTitle(r)}>
                {r.tokensIn === null ? '—' : formatCompact(r.tokensIn)} / {r.tokensOut === null ? '—' : formatCompact(r.tokensOut)}
              </td>
              <td className={`num${r.errors > 0 ? ' text-danger' : ''}`}>{formatCount(r.errors)}</td>
              {credits && (
                <td className="num" title={r.callsWithoutCredits > 0 ? `${formatCount(r.callsWithoutCredits)} model calls carry no credit data` : undefined}>
                  {formatCredits(r.credits)}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
