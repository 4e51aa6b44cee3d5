import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { LINEAGE_MAX_LIMIT, type LineageTraceResponse } from '../../../../shared/api';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { shortId } from '../../ui/format';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { visibleText } from '../../ui/visible-text';
import { RepositorySelect, WindowPicker } from '../sessions/SessionFilters';
import { repositoryListOptions } from '../sessions/sessions.queries';
import { ConnectedLineage } from './ConnectedLineage';
import { ForestView } from './ForestView';
import { lineageKeys, lineageTraceOptions } from './lineage.queries';
import { nodeBadge } from './relation';
import { sessionPath, useForestFilters, useTraceBounds } from './url';
import './lineage.css';

function TraceHeader({ trace }: { trace: LineageTraceResponse }) {
  const t = trace.target;
  const badge = nodeBadge(t);
  return (
    <header className="page-header lineage-header">
      <div className="lineage-header-text">
        <p className="lineage-crumb">
          <Link to="/lineage">Lineage</Link> ›
        </p>
        <h1 title={visibleText(t.title ?? t.id)}>
          {visibleText(t.title ?? t.label ?? shortId(t.id))} {badge && <span className="lineage-header-badge">{badge}</span>}
        </h1>
      </div>
      <div className="page-toolbar">
        <Link to={sessionPath(t.id)} className="btn">
          Open session
        </Link>
      </div>
    </header>
  );
}

function TraceView({ id }: { id: string }) {
  const [bounds, setBounds] = useTraceBounds();
  const title = useQuery({ ...lineageTraceOptions(id, bounds), select: (t) => t.target.title ?? t.target.label });
  useDocumentTitle(title.data ? `Lineage: ${title.data}` : 'Lineage');
  useLiveInvalidation(lineageKeys.traces());
  return (
    <section className="page lineage-page">
      <ConnectedLineage
        sessionId={id}
        bounds={bounds}
        height="calc(100vh - var(--topbar-h) - 150px)"
        header={(trace) => <TraceHeader trace={trace} />}
        onShowAll={(trace) => setBounds({ depth: 200, limit: Math.min(LINEAGE_MAX_LIMIT, Math.max(2000, trace.descendantCount * 4)) })}
      />
    </section>
  );
}

function ForestPage() {
  useDocumentTitle('Lineage');
  const [filters, setFilters] = useForestFilters();
  useLiveInvalidation(lineageKeys.forests());
  const repos = useQuery(repositoryListOptions(filters.window));
  return (
    <section className="page lineage-page">
      <header className="page-header">
        <div>
          <h1>Lineage</h1>
          <p className="muted lineage-intro">Sessions with the subagents, title and summary children they started and the forks made from them.</p>
        </div>
        <div className="page-toolbar">
          <RepositorySelect value={filters.repo} repositories={repos.data?.repositories ?? []} onChange={(repo) => setFilters({ repo })} />
          <WindowPicker value={filters.window} onChange={(window) => setFilters({ window })} />
          <label className="field lineage-branching">
            <input type="checkbox" checked={filters.branching} onChange={(e) => setFilters({ branching: e.target.checked })} />
            <span>Only sessions with children</span>
          </label>
        </div>
      </header>
      <ForestView filters={filters} />
    </section>
  );
}

/** `/lineage`: the forest of every session's family; `/lineage/:id`: one session's ancestors and descendants as a graph. */
export function LineagePage() {
  const { id } = useParams();
  return id ? <TraceView key={id} id={id} /> : <ForestPage />;
}
