import { SearchQuery } from '../../shared/api/search';
import type { Options } from '../config';
import { formatSearch } from '../search/format-cli';
import { withRepoFilter } from '../search/repo-filter';
import { searchSessions } from '../search/search-sessions';
import { CliError, EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { readIndex } from './open-index';

function flag(opts: Options, name: string): string | undefined {
  const v = opts.flags[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
}

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
  const parsed = SearchQuery.safeParse({
    q: text,
    window: flag(opts, 'window') ?? 'all',
    sort: flag(opts, 'sort') ?? 'relevance',
    perGroup: flag(opts, 'limit') ?? '10',
    depth: flag(opts, 'depth') ?? 'first',
    limit: 500,
  });
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const name = { perGroup: 'limit' }[String(i.path[0])] ?? String(i.path[0]);
    throw new CliError('bad_request', `--${name}: ${i.message}`);
  }
  return readIndex(opts, (db) => {
    const r = searchSessions(db, parsed.data);
    process.stdout.write(opts.json ? `${JSON.stringify(r)}\n` : formatSearch(text.trim(), r, Date.now(), process.stdout.isTTY === true));
    // A bad query (too short, FTS5 syntax) is an ApiError 400: run-cli reports it with its code, exit 2.
    return r.totals.sessions > 0 ? EXIT_OK : EXIT_NOTHING_FOUND;
  });
}
