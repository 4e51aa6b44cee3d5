// The SQL console's process: one read-only connection, one statement at a time. It is a child process, not a
// worker thread, because a thread cannot be stopped inside SQLite: better-sqlite3 is built without the
// progress callback and exposes no sqlite3_interrupt, and Worker.terminate() waits for the native call to
// return (a recursive CTE bomb never does). A process can be killed. sql-runner.ts kills it on timeout.
import { CONSOLE_MAX_RSS_BYTES, startConsoleWatchdog } from './console-watchdog';
import { runConsoleQuery, openConsoleDb } from './run-console-query';
import { SqlQueryError } from './sql-error';
import type { ChildReply, ChildRequest } from './sql-runner';

const dbPath = process.argv[2];
const maxRss = Number(process.argv[3] ?? CONSOLE_MAX_RSS_BYTES);
if (!dbPath || !process.send) {
  process.stderr.write('query-process: started without a database path or an IPC channel\n');
  process.exit(2);
}
startConsoleWatchdog(maxRss);
const send = process.send.bind(process);
let db: ReturnType<typeof openConsoleDb>;
try {
  db = openConsoleDb(dbPath);
} catch (err) {
  send({ type: 'fatal', message: err instanceof Error ? err.message : String(err) } satisfies ChildReply);
  process.exit(1);
}

process.on('message', (m: ChildRequest) => {
  try {
    const result = runConsoleQuery(db, m.sql, m.limits);
    send({ type: 'result', id: m.id, result } satisfies ChildReply);
  } catch (err) {
    const e = err instanceof SqlQueryError ? err : new SqlQueryError('sql_error', err instanceof Error ? err.message : String(err));
    send({ type: 'error', id: m.id, code: e.code, message: e.message, reason: e.reason } satisfies ChildReply);
  }
});
// The server went away: nothing will read our answers (between statements; the watchdog covers a running one).
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' } satisfies ChildReply);
