import { LineageTraceQuery } from '../../shared/api';
import type { Options } from '../config';
import { formatTrace } from '../lineage/format-trace';
import { traceLineage } from '../lineage/lineage-db';
import { LineageCycleError } from '../lineage/trace';
import { openIndexForQuery } from './open-index';

/** `chronoscope trace SESSION_ID [--json] [--depth N] [--limit N]`: ancestors and descendants of a session. */
export async function runTrace(opts: Options): Promise<number> {
  const wanted = opts.positionals[0];
  if (!wanted) {
    process.stderr.write('usage: chronoscope trace SESSION_ID [--json] [--depth N] [--limit N]\n');
    return 2;
  }
  const q = LineageTraceQuery.safeParse({ depth: opts.flags.depth, limit: opts.flags.limit });
  if (!q.success) {
    const i = q.error.issues[0];
    process.stderr.write(`--${String(i.path[0])}: ${i.message}\n`);
    return 2;
  }
  const db = await openIndexForQuery(opts);
  try {
    // A unique prefix is enough, as with git: ids are long UUIDs.
    let id = wanted;
    if (!db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(wanted)) {
      const like = db.prepare("SELECT id FROM sessions WHERE id >= ? AND id < ? || char(1114111) ORDER BY id LIMIT 3").all(wanted, wanted) as { id: string }[];
      if (like.length === 1) id = like[0].id;
      else {
        process.stderr.write(like.length === 0 ? `no session ${wanted} in the index\n` : `${wanted} names more than one session: ${like.map((r) => r.id).join(', ')}…\n`);
        return 1;
      }
    }
    const trace = traceLineage(db, id, q.data);
    if (!trace) {
      process.stderr.write(`no session ${id} in the index\n`);
      return 1;
    }
    process.stdout.write(opts.json ? JSON.stringify(trace) + '\n' : formatTrace(trace));
    return 0;
  } catch (err) {
    if (err instanceof LineageCycleError) {
      if (opts.json) process.stdout.write(JSON.stringify({ error: { code: 'lineage_cycle', message: err.message, details: { cycle: err.cycle } } }) + '\n');
      else process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    db.close();
  }
}
