import { ErrorGroupsQuery } from '../../shared/api';
import type { Options } from '../config';
import { flag, parseFlags } from '../triage/cli-args';
import { errorGroups } from '../triage/error-groups';
import { formatErrors } from '../triage/format-cli';
import { openIndexForQuery } from './open-index';

/** `chronoscope errors [--type tool|model|subagent|hook|discovery|other] [--tool T | --model M] [--window 7d] [--repo R] [--limit 30] [--json]` */
export async function runErrors(opts: Options): Promise<number> {
  const q = parseFlags(ErrorGroupsQuery, {
    kind: flag(opts, 'type'),
    subject: flag(opts, 'tool') ?? flag(opts, 'model'),
    window: flag(opts, 'window'),
    repo: flag(opts, 'repo'),
    sort: flag(opts, 'sort'),
    limit: flag(opts, 'limit') ?? '30',
  });
  if (!q.ok) {
    process.stderr.write(`chronoscope errors: ${q.message.replace('--kind', '--type').replace('--subject', '--tool')}\n`);
    return 2;
  }
  const db = await openIndexForQuery(opts);
  try {
    const r = errorGroups(db, q.data);
    process.stdout.write(opts.json ? JSON.stringify(r) + '\n' : formatErrors(r));
    return 0;
  } finally {
    db.close();
  }
}
