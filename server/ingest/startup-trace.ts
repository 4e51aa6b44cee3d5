/**
 * `CHRONOSCOPE_TRACE_STARTUP=1`: the ingest's start-up phases on stderr, in ms since the process started
 * (`process.uptime()` is the process's in a worker too), so a bench can tell where the time to "this week is
 * indexed" goes (bench/run.ts `--only newest`). Off, it is one comparison per phase.
 */
const enabled = process.env.CHRONOSCOPE_TRACE_STARTUP === '1';

export const STARTUP_TRACE_PREFIX = '[startup]';

export function traceStartup(phase: string): void {
  if (enabled) process.stderr.write(`${STARTUP_TRACE_PREFIX} ${(process.uptime() * 1000).toFixed(0)} ms ${phase}\n`);
}
