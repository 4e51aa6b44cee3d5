import { useQuery } from '@tanstack/react-query';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useStoredFlag } from '../../ui/useStoredFlag';
import { ImportDrop } from '../export/ImportDrop';
import { ConnectedSessionList } from './ConnectedSessionList';
import { SourcePicker } from '../../ui/Segmented';
import { RepositorySelect, WindowPicker } from './SessionFilters';
import { repositoryListOptions, sessionKeys } from './sessions.queries';
import './sessions.css';
import { useSessionsFilters } from './url';

/** `/`: every session, grouped by repository, newest first, filtered by repository and window from the URL. */
export function SessionsPage() {
  useDocumentTitle('Sessions');
  const [filters, setFilters] = useSessionsFilters();
  // New lines on disk → refetch lists and counts (throttled during a backfill).
  useLiveInvalidation(sessionKeys.all);
  const repos = useQuery(repositoryListOptions(filters.window, filters.source));
  const [follow, setFollow] = useStoredFlag('chronoscope.sessions.followNew');
  return (
    <section className="page sessions-page">
      <ImportDrop />
      <header className="page-header">
        <h1>Sessions</h1>
        <div className="page-toolbar">
          <RepositorySelect value={filters.repo} repositories={repos.data?.repositories ?? []} onChange={(repo) => setFilters({ repo })} />
          <WindowPicker value={filters.window} onChange={(window) => setFilters({ window })} />
          <SourcePicker value={filters.source} onChange={(source) => setFilters({ source })} />
          <label className="follow-live" title="Go back to the top when new sessions arrive (newest first only)">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow new sessions
          </label>
        </div>
      </header>
      <ConnectedSessionList filters={filters} onClearFilters={() => setFilters({ repo: undefined, window: 'all', source: undefined })} onSort={setFilters} follow={follow} />
    </section>
  );
}
