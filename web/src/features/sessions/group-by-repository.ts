import type { SessionSummary } from '../../../../shared/api';
import { NO_WORKSPACE_LABEL, type RepositoryGroup as SharedRepositoryGroup } from '../../../../shared/group-by-repository';
import { visibleText } from '../../ui/visible-text';

// Newest-first sessions grouped by repository (the most recently active on top, "No workspace" last): the same
// grouping search uses on the server.
export { groupByRepository } from '../../../../shared/group-by-repository';

export type RepositoryGroup = SharedRepositoryGroup<SessionSummary>;

/** A group's heading: the repository's name as log text shows it, or "No workspace". */
export function repositoryLabel(repository: string | null): string {
  return repository === null ? NO_WORKSPACE_LABEL : visibleText(repository);
}
