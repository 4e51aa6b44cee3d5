import { SearchQuery } from '../../shared/api/search';
import type { Options } from '../config';
import { ApiError } from '../http/errors';
import { formatSearch } from '../search/format-cli';
import { withRepoFilter } from '../search/repo-filter';
import { searchSessions } from '../search/search-sessions';
import { openIndexForQuery } from './open-index';

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
    process.stderr.write(`chronoscope search: --${name}: ${i.message}\n`);
    return 2;
  }
  const db = await openIndexForQuery(opts);
  try {
    const r = searchSessions(db, parsed.data);
    process.stdout.write(opts.json ? `${JSON.stringify(r)}\n` : formatSearch(text.trim(), r, Date.now(), process.stdout.isTTY === true));
    return r.totals.sessions > 0 ? 0 : 1;
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) {
      process.stderr.write(`chronoscope search: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    db.close();
  }
}
