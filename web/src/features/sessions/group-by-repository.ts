import type { SessionSummary } from '../../../../shared/api';

export interface RepositoryGroup {
  /** null: sessions whose workspace has no repository, shown under "Other" */
  repository: string | null;
  sessions: SessionSummary[];
}

export const OTHER_LABEL = 'Other';

export function repositoryLabel(repository: string | null): string {
  return repository ?? OTHER_LABEL;
}

/**
 * Groups a newest-first session list by repository. Groups come in the order of their newest session (so
 * the most recently active repository is on top), sessions keep their order inside a group, and "Other"
 * (no repository) comes last whatever its activity: it is a catch-all, not a project.
 */
export function groupByRepository(sessions: readonly SessionSummary[]): RepositoryGroup[] {
  const groups = new Map<string | null, RepositoryGroup>();
  for (const s of sessions) {
    let g = groups.get(s.repository);
    if (!g) {
      g = { repository: s.repository, sessions: [] };
      groups.set(s.repository, g);
    }
    g.sessions.push(s);
  }
  const other = groups.get(null);
  groups.delete(null);
  return other ? [...groups.values(), other] : [...groups.values()];
}
