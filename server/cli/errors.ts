import { ErrorGroupsQuery } from '../../shared/api';
import type { Options } from '../config';
import { flag, parseFlags } from '../triage/cli-args';
import { errorGroups } from '../triage/error-groups';
import { formatErrors } from '../triage/format-cli';
import { EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { readIndex } from './open-index';

/** `chronoscope errors [--type tool|model|subagent|hook|discovery|other] [--tool T | --model M] [--window 7d] [--repo R] [--source cli|vscode] [--limit 30] [--json]`: exit 1 when no failure matches. */
export async function runErrors(opts: Options): Promise<number> {
  const q = parseFlags(ErrorGroupsQuery, {
    kind: flag(opts, 'type'),
    subject: flag(opts, 'tool') ?? flag(opts, 'model'),
    window: flag(opts, 'window'),
    repo: flag(opts, 'repo'),
    source: flag(opts, 'source'),
    sort: flag(opts, 'sort'),
    limit: flag(opts, 'limit') ?? '30',
  }, { kind: 'type', subject: 'tool' });
  return readIndex(opts, (db) => {
    const r = errorGroups(db, q);
    process.stdout.write(opts.json ? JSON.stringify(r) + '\n' : formatErrors(r));
    return r.totalGroups > 0 ? EXIT_OK : EXIT_NOTHING_FOUND;
  });
}
