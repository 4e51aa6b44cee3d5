import type { SessionSummary } from '../../../../shared/api';
import type { RepositoryGroup as SharedRepositoryGroup } from '../../../../shared/group-by-repository';
import { visibleText } from '../../ui/visible-text';

// Newest-first sessions grouped by repository (the most recently active on top, "Other" last): the same
// grouping search uses on the server.
export { groupByRepository } from '../../../../shared/group-by-repository';

export type RepositoryGroup = SharedRepositoryGroup<SessionSummary>;

export const OTHER_LABEL = 'Other';

/** A group's heading: the repository's name as log text shows it, or Other. */
export function repositoryLabel(repository: string | null): string {
  return repository === null ? OTHER_LABEL : visibleText(repository);
}
