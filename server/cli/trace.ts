import { LineageTraceQuery } from '../../shared/api';
import type { Options } from '../config';
import { formatTrace } from '../lineage/format-trace';
import { traceLineage } from '../lineage/lineage-db';
import { LineageCycleError } from '../lineage/trace';
import { CliError } from './cli-error';
import { readIndex } from './open-index';
import { noSuchSession, resolveSessionId } from './session-id';
import { flag, parseFlags } from '../triage/cli-args';

/** `chronoscope trace SESSION_ID [--json] [--depth N] [--limit N]`: ancestors and descendants of a session; an unknown id is exit 2. */
export async function runTrace(opts: Options): Promise<number> {
  const wanted = opts.positionals[0];
  if (!wanted) {
    throw new CliError('bad_request', 'which session? usage: chronoscope trace SESSION_ID [--json] [--depth N] [--limit N]');
  }
  const q = parseFlags(LineageTraceQuery, { depth: flag(opts, 'depth'), limit: flag(opts, 'limit') });
  try {
    return await readIndex(opts, (db) => {
      const id = resolveSessionId(db, wanted);
      const trace = traceLineage(db, id, q);
      if (!trace) throw noSuchSession(id);
      process.stdout.write(opts.json ? JSON.stringify(trace) + '\n' : formatTrace(trace));
      return 0;
    });
  } catch (err) {
    if (err instanceof LineageCycleError) throw new CliError('lineage_cycle', err.message, { cycle: err.cycle });
    throw err;
  }
}
