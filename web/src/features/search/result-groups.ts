import type { SearchGroup, SearchResponse, SearchSession } from '../../../../shared/api';

/** The key of a repository group in maps and React keys ('' can be a name: "Other" gets a character no name has). */
export const groupKey = (repository: string | null) => (repository === null ? '\u0000other' : repository);

export interface GroupPages {
  /** the "…and N more" pages fetched so far for this group, in order (undefined while one loads) */
  pages: (SearchResponse | undefined)[];
}

export interface AssembledGroup {
  repository: string | null;
  sessionCount: number;
  sessions: SearchSession[];
  more: number;
  loadingMore: boolean;
  /** the cursor for the next "…and N more" page, null when the group is complete */
  nextCursor: string | null;
}

/** The overview's groups with their expanded pages appended (a session is never listed twice). */
export function assembleGroups(groups: readonly SearchGroup[], expanded: ReadonlyMap<string, GroupPages>): AssembledGroup[] {
  return groups.map((g) => {
    const sessions = [...g.sessions];
    const seen = new Set(sessions.map((s) => s.id));
    let more = g.more;
    let nextCursor = g.nextCursor;
    let loadingMore = false;
    for (const page of expanded.get(groupKey(g.repository))?.pages ?? []) {
      if (!page) {
        loadingMore = true;
        break;
      }
      const pg = page.groups[0];
      if (!pg) break;
      for (const s of pg.sessions) if (!seen.has(s.id)) (seen.add(s.id), sessions.push(s));
      more = pg.more;
      nextCursor = pg.nextCursor;
    }
    return { repository: g.repository, sessionCount: g.sessionCount, sessions, more, loadingMore, nextCursor };
  });
}

/** Rows in screen order, for keyboard selection. */
export function flatRows(groups: readonly AssembledGroup[]): SearchSession[] {
  return groups.flatMap((g) => g.sessions);
}
