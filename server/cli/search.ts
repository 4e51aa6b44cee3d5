import { SearchQuery } from '../../shared/api/search';
import type { Options } from '../config';
import { formatSearch } from '../search/format-cli';
import { withRepoFilter } from '../search/repo-filter';
import { searchSessions } from '../search/search-sessions';
import { EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { readIndex } from './open-index';
import { flag, parseFlags } from '../triage/cli-args';

/** `--repo R` is the query's repo: filter. */
export function queryText(opts: Options): string {
  return withRepoFilter(opts.positionals.join(' '), flag(opts, 'repo'));
}

/**
 * `chronoscope search QUERY [--window 7d] [--repo R] [--sort relevance|recent] [--limit 10] [--depth all] [--json]`:
 * grouped text for people, the API's JSON for scripts. Exit 0 with results, 1 with none, 2 on a bad query.
 */
export async function runSearch(opts: Options): Promise<number> {
  const text = queryText(opts);
  const flags = {
    q: text,
    window: flag(opts, 'window') ?? 'all',
    sort: flag(opts, 'sort') ?? 'relevance',
    perGroup: flag(opts, 'limit') ?? '10',
    depth: flag(opts, 'depth') ?? 'first',
    limit: 500,
  };
  const query = parseFlags(SearchQuery, flags, { perGroup: 'limit' });
  return readIndex(opts, (db) => {
    const r = searchSessions(db, query);
    process.stdout.write(opts.json ? `${JSON.stringify(r)}\n` : formatSearch(text.trim(), r, Date.now(), process.stdout.isTTY === true));
    // A bad query (too short, FTS5 syntax) is an ApiError 400: run-cli reports it with its code, exit 2.
    return r.totals.sessions > 0 ? EXIT_OK : EXIT_NOTHING_FOUND;
  });
}
