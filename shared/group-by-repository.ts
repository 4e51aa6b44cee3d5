/**
 * The heading of the group of sessions without a repository, in every grouped view (sessions list, search results,
 * repository filters, triage, CLI): sessions written with no workspace open (the globalStorage roots, FORMAT §10.1),
 * and the few whose workspace folder is unknown.
 */
export const NO_WORKSPACE_LABEL = 'No workspace';

export interface RepositoryGroup<T> {
  /** null: sessions without a repository, shown under NO_WORKSPACE_LABEL */
  repository: string | null;
  sessions: T[];
}

/**
 * Groups an ordered session list by repository. Groups come in the order of their first session (the newest on
 * the sessions page, the best ranked in search), sessions keep their order inside a group, and "No workspace" (no
 * repository) comes last whatever its order: it is a catch-all, not a project. Server (search) and web
 * (sessions page) group the same way through this one function.
 */
export function groupByRepository<T extends { repository: string | null }>(sessions: readonly T[]): RepositoryGroup<T>[] {
  const groups = new Map<string | null, RepositoryGroup<T>>();
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
