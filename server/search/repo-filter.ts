/** A query narrowed to one repository: `repo:"R"` quoted, so a name with spaces or quotes stays one value. */
export function withRepoFilter(query: string, repo: string | undefined): string {
  return repo === undefined ? query : `${query} repo:"${repo.replace(/"/g, '""')}"`;
}
