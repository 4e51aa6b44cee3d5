import { UsageQuery } from '../../shared/api';
import type { Options } from '../config';
import { flag, parseFlags } from '../triage/cli-args';
import { formatUsage } from '../usage/format-cli';
import { usage } from '../usage/usage';
import { openIndexForQuery } from './open-index';

/** `chronoscope usage [--window 7d] [--repo R] [--by model|repository|day] [--json]` */
export async function runUsage(opts: Options): Promise<number> {
  const q = parseFlags(UsageQuery, { window: flag(opts, 'window'), repo: flag(opts, 'repo'), by: flag(opts, 'by') });
  if (!q.ok) {
    process.stderr.write(`chronoscope usage: ${q.message}\n`);
    return 2;
  }
  const db = await openIndexForQuery(opts);
  try {
    const r = usage(db, q.data);
    process.stdout.write(opts.json ? JSON.stringify(r) + '\n' : formatUsage(r));
    return 0;
  } finally {
    db.close();
  }
}
