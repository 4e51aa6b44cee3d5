import { useQuery } from '@tanstack/react-query';
import { EstimatedMark } from '../../ui/EstimatedMark';
import { Link } from 'react-router';
import type { UsageRow, UsageTotals } from '../../../../shared/api';
import { NO_WORKSPACE_LABEL } from '../../../../shared/group-by-repository';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount, formatCredits } from '../../ui/format';
import { Segmented, WINDOW_OPTIONS } from '../../ui/Segmented';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { visibleText } from '../../ui/visible-text';
import { inRepositoryAndWindow } from '../sessions/group-by-repository';
import { repositoryListOptions } from '../sessions/sessions.queries';
import { RepositorySelect } from '../sessions/SessionFilters';
import { DEFAULT_STATE as TRIAGE_DEFAULTS, triageHref } from '../triage/url';
import { CacheBreaks } from './CacheBreaks';
import { UsageChart } from './UsageChart';
import { usageKeys, usageOptions } from './usage.queries';
import { useUsageState, type UsageState } from './url';
import './usage.css';

const DAY_MS = 86_400_000;
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const usd = (v: number) => `$${v.toFixed(2)}`;

/** The model calls behind a number: the triage list of llm_request events with the same scope. */
function callsHref(s: UsageState, row?: UsageRow): string {
  const base = { ...TRIAGE_DEFAULTS, window: s.window, repo: s.repo, type: 'llm_request', min: -1, sort: 'ts' as const };
  if (!row) return triageHref(base);
  if (s.by === 'model') return triageHref({ ...base, model: row.key ?? undefined });
  if (s.by === 'repository') return triageHref({ ...base, repo: row.key ?? '' });
  const from = Date.parse(`${row.key}T00:00:00Z`);
  return triageHref({ ...base, window: 'all', from, to: from + DAY_MS });
}

function Totals({ t, href }: { t: UsageTotals; href: string }) {
  return (
    <dl className="stat-grid usage-totals">
      <div className="stat">
        <dt>AI credits</dt>
        <dd>
          <Link to={href} title={`${formatCredits(t.credits)} credits = Σ copilotUsageNanoAiu / 10⁹`}>
            {formatCredits(t.credits)}
          </Link>
          <span className="stat-sub">≈ {usd(t.usd)}</span>
        </dd>
      </div>
      <div className="stat">
        <dt>Requests</dt>
        <dd>{formatCount(t.requests)}</dd>
      </div>
      <div className="stat">
        <dt>Model calls</dt>
        <dd>
          <Link to={href}>{formatCount(t.modelCalls)}</Link>
        </dd>
      </div>
      <div className="stat">
        <dt>Tokens in / out</dt>
        <dd>
          {formatCount(t.tokensIn)} <span className="muted">/</span> {formatCount(t.tokensOut)}
          <EstimatedMark estimated={t.estimated} />
        </dd>
      </div>
      <div className="stat">
        <dt>Cached input</dt>
        <dd title={`${formatCount(t.tokensCached)} of ${formatCount(t.tokensIn)} input tokens read from the cache`}>{pct(t.cacheHitRatio)}</dd>
      </div>
      <div className="stat">
        <dt>Calls without credit data</dt>
        <dd title="model calls whose log line carries no copilotUsageNanoAiu: counted here, never estimated">{formatCount(t.callsWithoutCredits)}</dd>
      </div>
    </dl>
  );
}

const BY_LABEL = { model: 'Model', repository: 'Repository', day: 'Day (UTC)' } as const;

function UsageTable({ rows, state }: { rows: UsageRow[]; state: UsageState }) {
  return (
    <table className="data-table usage-table" aria-label={`Usage by ${state.by}`}>
      <thead>
        <tr>
          <th scope="col">{BY_LABEL[state.by]}</th>
          {state.by !== 'model' && (
            <th scope="col" className="num">
              Requests
            </th>
          )}
          <th scope="col" className="num">
            Model calls
          </th>
          <th scope="col" className="num">
            Tokens in
          </th>
          <th scope="col" className="num">
            Tokens out
          </th>
          <th scope="col" className="num">
            Cached
          </th>
          <th scope="col" className="num">
            Credits
          </th>
          <th scope="col" className="num">
            US$
          </th>
          <th scope="col" className="num" title="model calls with no credit data">
            No credit data
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key ?? '\u0000none'}>
            <td className="mono">
              {r.key === null ? <span className="muted">{state.by === 'repository' ? NO_WORKSPACE_LABEL : 'unknown model'}</span> : visibleText(r.key)}
            </td>
            {state.by !== 'model' && <td className="num">{formatCount(r.requests)}</td>}
            <td className="num">
              <Link to={callsHref(state, r)} title="Open these model calls">
                {formatCount(r.modelCalls)}
              </Link>
            </td>
            <td className="num">
              {formatCount(r.tokensIn)}
              <EstimatedMark estimated={r.estimated} compact />
            </td>
            <td className="num">{formatCount(r.tokensOut)}</td>
            <td className="num" title={`${formatCount(r.tokensCached)} cached input tokens`}>
              {pct(r.cacheHitRatio)}
            </td>
            <td className="num">
              <Link to={callsHref(state, r)}>{formatCredits(r.credits)}</Link>
            </td>
            <td className="num">{usd(r.usd)}</td>
            <td className={r.callsWithoutCredits > 0 ? 'num' : 'num muted'}>{formatCount(r.callsWithoutCredits)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** No model call in the window and repository: the way to where there are some, one click each. */
function NoCalls({ state, setState }: { state: UsageState; setState: (s: Partial<UsageState>) => void }) {
  return (
    <EmptyState title={`No model calls${inRepositoryAndWindow(state.repo, state.window)}.`}>
      {state.window === 'all' && state.repo === undefined ? (
        <p>Usage appears here once the indexer has read a session with a model call; the top bar shows its progress.</p>
      ) : (
        <div className="empty-state-actions">
          {state.window !== 'all' && (
            <button type="button" className="btn" onClick={() => setState({ window: 'all' })}>
              Show all time
            </button>
          )}
          {state.repo !== undefined && (
            <button type="button" className="btn" onClick={() => setState({ repo: undefined })}>
              Show every repository
            </button>
          )}
        </div>
      )}
    </EmptyState>
  );
}

/** `/usage`: what the sessions cost, in AI credits and tokens, per model, repository or day. */
export function UsagePage() {
  useDocumentTitle('Usage');
  const [state, setState] = useUsageState();
  useLiveInvalidation(usageKeys.all, { throttleMs: 3000 });
  const repos = useQuery(repositoryListOptions(state.window));
  const q = useQuery(usageOptions({ window: state.window, repo: state.repo, by: state.by }));
  return (
    <section className="page usage-page">
      <header className="page-header">
        <h1>Usage</h1>
        <div className="page-toolbar">
          <Segmented label="Window" value={state.window} options={WINDOW_OPTIONS} onChange={(window) => setState({ window })} />
          <RepositorySelect value={state.repo} repositories={repos.data?.repositories ?? []} onChange={(repo) => setState({ repo })} />
        </div>
      </header>
      {q.isPending && <Spinner label="Adding up usage…" />}
      {q.isError && <ErrorInline error={q.error} onRetry={() => void q.refetch()} what="usage" />}
      {q.data && q.data.totals.modelCalls === 0 && <NoCalls state={state} setState={setState} />}
      {q.data && q.data.totals.modelCalls > 0 && (
        <>
          <Totals t={q.data.totals} href={callsHref(state)} />
          {q.data.totals.callsWithoutCredits > 0 && (
            <p className="usage-note muted">
              {formatCount(q.data.totals.callsWithoutCredits)} of {formatCount(q.data.totals.modelCalls)} model calls carry no credit data (older Copilot builds,
              utility calls): they are counted apart and not estimated. 1 AI credit = US$0.01.
            </p>
          )}
          <div className="usage-chart-head">
            <Segmented
              label="Chart"
              value={state.metric}
              options={[
                { value: 'credits', label: 'Credits' },
                { value: 'tokens', label: 'Tokens' },
              ]}
              onChange={(metric) => setState({ metric })}
            />
          </div>
          <UsageChart daily={q.data.daily} metric={state.metric} />
          <div className="usage-table-head">
            <Segmented
              label="Group by"
              value={state.by}
              options={[
                { value: 'model', label: 'Model' },
                { value: 'repository', label: 'Repository' },
                { value: 'day', label: 'Day' },
              ]}
              onChange={(by) => setState({ by })}
            />
          </div>
          <UsageTable rows={q.data.rows} state={state} />
          <CacheBreaks query={{ window: state.window, repo: state.repo }} />
        </>
      )}
    </section>
  );
}
