import { LineageTraceQuery } from '../../shared/api';
import type { Options } from '../config';
import { formatTrace } from '../lineage/format-trace';
import { traceLineage } from '../lineage/lineage-db';
import { LineageCycleError } from '../lineage/trace';
import { CliError } from './cli-error';
import { readIndex } from './open-index';
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
      // A unique prefix is enough, as with git: ids are long UUIDs.
      let id = wanted;
      if (!db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(wanted)) {
        const like = db.prepare("SELECT id FROM sessions WHERE id >= ? AND id < ? || char(1114111) ORDER BY id LIMIT 3").all(wanted, wanted) as { id: string }[];
        if (like.length === 1) id = like[0].id;
        else if (like.length === 0) throw new CliError('not_found', `no session ${wanted} in the index: check the id (\`chronoscope search\` finds sessions)`);
        else throw new CliError('ambiguous_id', `${wanted} names more than one session (${like.map((r) => r.id).join(', ')}…): give more of the id`);
      }
      const trace = traceLineage(db, id, q);
      if (!trace) throw new CliError('not_found', `no session ${id} in the index: check the id (\`chronoscope search\` finds sessions)`);
      process.stdout.write(opts.json ? JSON.stringify(trace) + '\n' : formatTrace(trace));
      return 0;
    });
  } catch (err) {
    if (err instanceof LineageCycleError) throw new CliError('lineage_cycle', err.message, { cycle: err.cycle });
    throw err;
  }
}
