import { UsageQuery } from '../../shared/api';
import type { Options } from '../config';
import { flag, parseFlags } from '../triage/cli-args';
import { formatUsage } from '../usage/format-cli';
import { usage } from '../usage/usage';
import { EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { readIndex } from './open-index';

/** `chronoscope usage [--window 7d] [--repo R] [--by model|repository|day] [--json]`: exit 1 when no call matches. */
export async function runUsage(opts: Options): Promise<number> {
  const q = parseFlags(UsageQuery, { window: flag(opts, 'window'), repo: flag(opts, 'repo'), by: flag(opts, 'by') });
  return readIndex(opts, (db) => {
    const r = usage(db, q);
    process.stdout.write(opts.json ? JSON.stringify(r) + '\n' : formatUsage(r));
    return r.rows.length > 0 ? EXIT_OK : EXIT_NOTHING_FOUND;
  });
}
