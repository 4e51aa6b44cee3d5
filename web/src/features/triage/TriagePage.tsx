import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import type { TimeWindow } from '../../../../shared/api';
import { NO_WORKSPACE_LABEL } from '../../../../shared/group-by-repository';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { formatCount } from '../../ui/format';
import { Segmented, SourcePicker, WINDOW_OPTIONS } from '../../ui/Segmented';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { visibleText } from '../../ui/visible-text';
import { ConnectedEventList } from './EventList';
import { EventFilters, FilterChips } from './EventFilters';
import { FailureGroups } from './FailureGroups';
import { LatencyView } from './LatencyView';
import { countsOptions, latencyOptions, repositoriesOptions, triageKeys } from './triage.queries';
import './triage.css';
import { CLEARED_EVENT_FILTERS, DEFAULT_MIN, DEFAULT_STATE, eventQueryOf, triageHref, useTriageState, type TriageState, type TriageTab } from './url';

const TABS: { value: TriageTab; label: string }[] = [
  { value: 'slow', label: 'Slow calls' },
  { value: 'failures', label: 'Failures' },
  { value: 'latency', label: 'Latency' },
];

const ALL = '\u0000all';
const NONE = '\u0000none';

function RepoSelect({ state, onChange }: { state: TriageState; onChange: (next: Partial<TriageState>) => void }) {
  const id = useId();
  const repos = useQuery(repositoriesOptions(state.window, state.source));
  const list = repos.data?.repositories ?? [];
  const named = list.filter((r) => r.name !== null).sort((a, b) => a.name!.localeCompare(b.name!));
  const value = state.repo === undefined ? ALL : state.repo === '' ? NONE : state.repo;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Repository
      </label>
      <select id={id} className="select" value={value} onChange={(e) => onChange({ repo: e.target.value === ALL ? undefined : e.target.value === NONE ? '' : e.target.value })}>
        <option value={ALL}>All repositories</option>
        {state.repo && !named.some((r) => r.name === state.repo) && <option value={state.repo}>{visibleText(state.repo)}</option>}
        {named.map((r) => (
          <option key={r.name} value={r.name!}>
            {visibleText(r.name!)}
          </option>
        ))}
        <option value={NONE}>{NO_WORKSPACE_LABEL}</option>
      </select>
    </div>
  );
}

function WindowPicker({ value, onChange }: { value: TimeWindow; onChange: (w: TimeWindow) => void }) {
  return <Segmented label="Window" groupLabel="Time window" value={value} options={WINDOW_OPTIONS} onChange={onChange} />;
}

/** The headline numbers over every session, each a link to the events behind it. */
function Headline({ state }: { state: TriageState }) {
  const q = useQuery(countsOptions({ window: state.window, repo: state.repo, source: state.source }));
  if (!q.data) return null;
  const c = q.data;
  // Each card links to the list whose total it shows: same window, same repository, same source.
  const base = { ...DEFAULT_STATE, window: state.window, repo: state.repo, source: state.source };
  const allTime = state.window === 'all' && state.repo === undefined && state.source === undefined;
  const rawNote = (raw: number, jq: string) => (allTime ? `${formatCount(raw)} lines counting replayed copies (what ${jq} counts over the files)` : undefined);
  return (
    <dl className="stat-grid triage-headline">
      <div className="stat">
        <dt>Slower than 5 s</dt>
        <dd>
          <Link to={triageHref(base)} title={rawNote(c.slow.raw, c.slow.jq)}>
            {formatCount(c.slow.unique)}
          </Link>
        </dd>
      </div>
      <div className="stat">
        <dt>Errors</dt>
        <dd>
          <Link className="text-danger" to={triageHref({ ...base, min: -1, status: 'error', sort: 'ts' })} title={rawNote(c.errors.raw, c.errors.jq)}>
            {formatCount(c.errors.unique)}
          </Link>
        </dd>
      </div>
      <div className="stat">
        <dt>Failures (incl. warnings)</dt>
        <dd>
          <Link to={triageHref({ ...base, tab: 'failures' })} title="errors, non-blocking hook errors and discovery skips">
            {formatCount(c.failures.unique)}
          </Link>
        </dd>
      </div>
    </dl>
  );
}

function SlowTab({ state, onChange }: { state: TriageState; onChange: (next: Partial<TriageState>) => void }) {
  const models = useQuery(latencyOptions({ by: 'model', window: state.window, repo: state.repo, source: state.source }));
  const tools = useQuery(latencyOptions({ by: 'tool', window: state.window, repo: state.repo, source: state.source }));
  const label = state.min === DEFAULT_MIN && state.sort === 'dur' ? 'Slowest calls' : 'Events';
  return (
    <>
      <EventFilters state={state} models={models.data?.rows} tools={tools.data?.rows} onChange={onChange} />
      <FilterChips state={state} onChange={onChange} />
      <ConnectedEventList query={eventQueryOf(state)} label={label} onClear={() => onChange(CLEARED_EVENT_FILTERS)} />
    </>
  );
}

/** `/triage`: the slowest calls, failures grouped by cause and latency statistics across every session. */
export function TriagePage() {
  useDocumentTitle('Triage');
  const [state, setState] = useTriageState();
  useLiveInvalidation(triageKeys.all, { throttleMs: 3000 });
  return (
    <section className="page triage-page">
      <header className="page-header">
        <h1>Triage</h1>
        <div className="page-toolbar">
          <WindowPicker value={state.window} onChange={(window) => setState({ window })} />
          <SourcePicker value={state.source} onChange={(source) => setState({ source })} />
          <RepoSelect state={state} onChange={setState} />
        </div>
      </header>
      <Headline state={state} />
      <div className="triage-tabs" role="tablist" aria-label="Triage views">
        {TABS.map((t) => (
          <Link
            key={t.value}
            role="tab"
            aria-selected={state.tab === t.value}
            className={`triage-tab${state.tab === t.value ? ' is-active' : ''}`}
            to={triageHref({ ...state, tab: t.value })}
          >
            {t.label}
          </Link>
        ))}
      </div>
      <div role="tabpanel" aria-label={TABS.find((t) => t.value === state.tab)?.label}>
        {state.tab === 'slow' && <SlowTab state={state} onChange={setState} />}
        {state.tab === 'failures' && <FailureGroups state={state} onChange={setState} />}
        {state.tab === 'latency' && <LatencyView state={state} onChange={setState} />}
      </div>
    </section>
  );
}
