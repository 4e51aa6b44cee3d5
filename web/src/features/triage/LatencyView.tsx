import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { hasUnknownTokens, type ChartQuery, type LatencyRow, type LatencyStatsResponse, type StatsBy } from '../../../../shared/api';
import { NO_WORKSPACE_LABEL } from '../../../../shared/group-by-repository';
import { Duration } from '../../ui/Duration';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount, plural } from '../../ui/format';
import { Spinner } from '../../ui/Spinner';
import { visibleText } from '../../ui/visible-text';
import { CallsTimeseries, DurationHistogram, TtftScatter } from './Charts';
import { formatPercent, formatTokens } from './format';
import { histogramOptions, latencyOptions, scatterOptions, timeseriesOptions } from './triage.queries';
import { CLEARED_EVENT_FILTERS, groupFilter, sessionEventHref, triageHref, type TriageState } from './url';

const BY: { value: StatsBy; label: string }[] = [
  { value: 'model', label: 'Model' },
  { value: 'tool', label: 'Tool' },
  { value: 'subagent', label: 'Subagent' },
  { value: 'hook', label: 'Hook' },
  { value: 'repository', label: 'Repository' },
];

/** The event-list state that shows a row's calls, optionally only those slower than a value or failing. */
function callsOf(state: TriageState, by: StatsBy, key: string, extra: Partial<TriageState> = {}): TriageState {
  return { ...state, ...CLEARED_EVENT_FILTERS, tab: 'slow', min: -1, ...groupFilter(by, key, state.ctype), ...extra };
}

const CALL_TYPES: { value: TriageState['ctype']; label: string }[] = [
  { value: 'llm_request', label: 'Model calls' },
  { value: 'tool_call', label: 'Tool calls' },
  { value: 'subagent', label: 'Subagents' },
  { value: 'hook', label: 'Hooks' },
];

/** A number that is a link to the events it counts (DESIGN: every number traceable in one click). */
function Traced({ to, children, title }: { to: string; children: React.ReactNode; title?: string }) {
  return (
    <Link to={to} className="traced" title={title}>
      {children}
    </Link>
  );
}

function Pct({ state, by, row, v, which }: { state: TriageState; by: StatsBy; row: LatencyRow; v: number | undefined; which: string }) {
  if (v === undefined) return <span className="muted">—</span>;
  // the calls at or above this value: the ones the percentile is about
  return (
    <Traced to={triageHref(callsOf(state, by, row.key, { min: v - 1, sort: 'dur' }))} title={`${which}: ${v.toLocaleString('en-US')} ms. Click for the calls taking at least this long.`}>
      <Duration ms={v} />
    </Traced>
  );
}

/**
 * A token total and how many of the group's calls it covers: "—" when no call reported the figure (Copilot CLI
 * writes input and cached tokens per session, not per call), never a 0 that reads as none used.
 */
function TokenCell({ total, reported, calls, what }: { total: number | null; reported: number; calls: number; what: string }) {
  if (total === null) {
    return (
      <td className="num muted" title={`No call here reported its ${what} (Copilot CLI writes them per session: see Usage)`}>
        —
      </td>
    );
  }
  const over = reported === calls ? `over ${plural(calls, 'call')}` : `over the ${formatCount(reported)} of ${plural(calls, 'call')} that reported them`;
  return (
    <td className="num" title={`${formatCount(total)} ${what} ${over}`}>
      {formatTokens(total)}
    </td>
  );
}

export function LatencyTable({ data, state, onSelect }: { data: LatencyStatsResponse; state: TriageState; onSelect: (key: string | undefined) => void }) {
  const by = data.by;
  // model calls (by model or repository) have TTFT and token columns; a Copilot CLI call has tokens but no TTFT
  const models = by !== 'tool';
  const def = data.percentileDefinition;
  return (
    <div className="table-scroll">
      <table className="data-table latency-table">
        <caption className="visually-hidden">Latency per {by}</caption>
        <thead>
          <tr>
            <th scope="col">{BY.find((b) => b.value === by)?.label}</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              Errors
            </th>
            <th scope="col" className="num" title={def}>
              p50 <span className="help" aria-label={def}>ⓘ</span>
            </th>
            <th scope="col" className="num" title={def}>
              p90
            </th>
            <th scope="col" className="num" title={def}>
              p99
            </th>
            <th scope="col" className="num">
              Max
            </th>
            {models && (
              <>
                <th scope="col" className="num" title={`Time to first token. ${def}`}>
                  TTFT p50
                </th>
                <th scope="col" className="num" title={`Time to first token. ${def}`}>
                  p90
                </th>
                <th scope="col" className="num" title={`Time to first token. ${def}`}>
                  p99
                </th>
                <th scope="col" className="num" title="Input tokens (sum)">
                  Tokens in
                </th>
                <th scope="col" className="num" title="Output tokens (sum)">
                  out
                </th>
                <th scope="col" className="num" title="Cached input tokens (sum)">
                  cached
                </th>
                <th scope="col" className="num" title="Output tokens per second of generation: sum of output tokens / sum of (duration − TTFT)">
                  Out tok/s
                </th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => {
            const selected = state.key === r.key;
            return (
              <tr key={r.key} className={selected ? 'is-selected' : undefined}>
                <th scope="row">
                  <button type="button" className="link-btn mono" aria-pressed={selected} onClick={() => onSelect(selected ? undefined : r.key)} title="Draw the charts for this row only">
                    {r.key ? visibleText(r.key) : by === 'repository' ? NO_WORKSPACE_LABEL : '(none)'}
                  </button>
                </th>
                <td className="num">
                  <Traced to={triageHref(callsOf(state, by, r.key))} title="Open these calls">
                    {formatCount(r.count)}
                  </Traced>
                </td>
                <td className="num">
                  {r.errors === 0 ? (
                    <span className="muted">0</span>
                  ) : (
                    <Traced to={triageHref(callsOf(state, by, r.key, { status: 'error', sort: 'ts' }))} title={`${formatCount(r.errors)} failed calls`}>
                      <span className="text-danger">{formatPercent(r.errorRate)}</span>
                    </Traced>
                  )}
                </td>
                <td className="num">
                  <Pct state={state} by={by} row={r} v={r.dur?.p50} which="p50" />
                </td>
                <td className="num">
                  <Pct state={state} by={by} row={r} v={r.dur?.p90} which="p90" />
                </td>
                <td className="num">
                  <Pct state={state} by={by} row={r} v={r.dur?.p99} which="p99" />
                </td>
                <td className="num">
                  <Pct state={state} by={by} row={r} v={r.dur?.max} which="max" />
                </td>
                {models && (
                  <>
                    {(['p50', 'p90', 'p99'] as const).map((p) => (
                      <td key={p} className="num">
                        {r.ttft ? (
                          <Traced to={triageHref(callsOf(state, by, r.key, { sort: 'ttft' }))} title={`TTFT ${p}: ${r.ttft[p].toLocaleString('en-US')} ms over ${formatCount(r.ttftCount)} calls. Click for the calls by TTFT.`}>
                            <Duration ms={r.ttft[p]} />
                          </Traced>
                        ) : (
                          <span className="muted">—</span>
                        )}
                      </td>
                    ))}
                    <TokenCell total={r.tokensIn} reported={r.tokensInCount} calls={r.count} what="input tokens" />
                    <TokenCell total={r.tokensOut} reported={r.tokensOutCount} calls={r.count} what="output tokens" />
                    <TokenCell total={r.tokensCached} reported={r.tokensCachedCount} calls={r.count} what="cached input tokens" />
                    <td className="num">{r.outputTokensPerSec ?? '—'}</td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="footnote muted">
        {def}
        {models && hasUnknownTokens(data.rows) && ' Tokens “—”: no call of the row reported them (Copilot CLI writes input and cached tokens per session: see Usage).'}
      </p>
    </div>
  );
}

function ChartsFor({ state, query }: { state: TriageState; query: ChartQuery }) {
  const navigate = useNavigate();
  const histogram = useQuery(histogramOptions(query));
  const series = useQuery(timeseriesOptions({ ...query }));
  const llm = query.by === 'model' || (query.by === 'repository' && (query.type ?? 'llm_request') === 'llm_request');
  const scatter = useQuery({ ...scatterOptions(query), enabled: llm });
  const by = query.by ?? 'model';
  // the calls of the selected row, or of every row of this grouping
  const base = (extra: Partial<TriageState>): TriageState =>
    query.key !== undefined ? callsOf(state, by, query.key, extra) : { ...state, ...CLEARED_EVENT_FILTERS, tab: 'slow', min: -1, type: groupFilter(by, '', state.ctype).type, ...extra };
  return (
    <div className="triage-charts">
      {histogram.data ? (
        <DurationHistogram
          data={histogram.data}
          onBar={(b, errorsOnly) =>
            navigate(triageHref(base({ min: b.lo, max: b.hi >= Number.MAX_SAFE_INTEGER ? undefined : b.hi, sort: 'dur', ...(errorsOnly ? { status: 'error' } : {}) })))
          }
        />
      ) : histogram.isError ? (
        <ErrorInline error={histogram.error} what="the histogram" />
      ) : (
        <Spinner label="Loading the histogram" />
      )}
      {series.data ? (
        <CallsTimeseries data={series.data} onBar={(p, errorsOnly) => navigate(triageHref(base({ from: p.t, to: p.t + series.data.bucketMs, sort: 'dur', ...(errorsOnly ? { status: 'error' } : {}) })))} />
      ) : series.isError ? (
        <ErrorInline error={series.error} what="the time series" />
      ) : (
        <Spinner label="Loading the time series" />
      )}
      {llm &&
        (scatter.data ? (
          <TtftScatter data={scatter.data} onPoint={(p) => navigate(sessionEventHref(p.sessionId, p.eventId))} />
        ) : scatter.isError ? (
          <ErrorInline error={scatter.error} what="the scatter plot" />
        ) : (
          <Spinner label="Loading the scatter plot" />
        ))}
    </div>
  );
}

/** Statistics per model, tool, hook, subagent or repository, and the charts of the selected row (or all). */
export function LatencyView({ state, onChange }: { state: TriageState; onChange: (next: Partial<TriageState>) => void }) {
  const type = state.by === 'repository' ? state.ctype : undefined;
  const q = useQuery(latencyOptions({ by: state.by, type, repo: state.repo, source: state.source, window: state.window }));
  const chartQuery: ChartQuery = { by: state.by, type, key: state.key, repo: state.repo, source: state.source, window: state.window };
  return (
    <div className="latency">
      <div className="triage-filters" role="group" aria-label="Statistics grouping">
        <div className="field">
          <span className="field-label">Group by</span>
          <div className="segmented" role="group" aria-label="Group by">
            {BY.map((b) => (
              <button key={b.value} type="button" className="segmented-btn" aria-pressed={state.by === b.value} onClick={() => onChange({ by: b.value, key: undefined })}>
                {b.label}
              </button>
            ))}
          </div>
        </div>
        {state.by === 'repository' && (
          <div className="field">
            <span className="field-label">Calls</span>
            <div className="segmented" role="group" aria-label="Which calls">
              {CALL_TYPES.map((t) => (
                <button key={t.value} type="button" className="segmented-btn" aria-pressed={state.ctype === t.value} onClick={() => onChange({ ctype: t.value, key: undefined })}>
                  {t.label}
                </button>
              ))}
            </div>
          </div>
        )}
        {state.key !== undefined && (
          <button type="button" className="chip" onClick={() => onChange({ key: undefined })} title="Draw the charts for every row">
            charts of {state.key || '(none)'} <span aria-hidden="true">×</span>
          </button>
        )}
      </div>
      {q.isPending ? (
        <Spinner label="Loading statistics" />
      ) : q.isError ? (
        <ErrorInline error={q.error} what="the statistics" onRetry={() => void q.refetch()} />
      ) : q.data.rows.length === 0 ? (
        <EmptyState title="No calls in this window">Widen the window or pick another repository.</EmptyState>
      ) : (
        <>
          <LatencyTable data={q.data} state={state} onSelect={(key) => onChange({ key })} />
          <ChartsFor state={state} query={chartQuery} />
        </>
      )}
    </div>
  );
}
