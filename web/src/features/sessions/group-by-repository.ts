import type { SessionSummary, TimeWindow } from '../../../../shared/api';
import { NO_WORKSPACE_LABEL, type RepositoryGroup as SharedRepositoryGroup } from '../../../../shared/group-by-repository';
import { visibleText } from '../../ui/visible-text';
import { inWindow } from '../../ui/window-text';

// Newest-first sessions grouped by repository (the most recently active on top, "No workspace" last): the same
// grouping search uses on the server.
export { groupByRepository } from '../../../../shared/group-by-repository';

export type RepositoryGroup = SharedRepositoryGroup<SessionSummary>;

/** A group's heading: the repository's name as log text shows it, or "No workspace". */
export function repositoryLabel(repository: string | null): string {
  return repository === null ? NO_WORKSPACE_LABEL : visibleText(repository);
}

/**
 * The end of a sentence about what a filter holds: " in acme/api in the last 7 days", " in No workspace" (repo '') or
 * nothing (every repository, all time). An empty list's title says it ("No sessions in acme/api.").
 */
export function inRepositoryAndWindow(repo: string | undefined, window: TimeWindow): string {
  return `${repo !== undefined ? ` in ${repositoryLabel(repo || null)}` : ''}${inWindow(window)}`;
}
