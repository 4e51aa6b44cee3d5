/**
 * `CHRONOSCOPE_TRACE_STARTUP=1`: the ingest's start-up phases on stderr, in ms since the process started
 * (`process.uptime()` is the process's in a worker too) and in CPU ms of the whole process (every thread: on a
 * machine shared with other work the wall time says little, the CPU time does), so a bench can tell where the
 * time to "this week is indexed" goes (bench/run.ts `--only newest`). Off, it is one comparison per phase.
 */
const enabled = process.env.CHRONOSCOPE_TRACE_STARTUP === '1';

export const STARTUP_TRACE_PREFIX = '[startup]';

export function traceStartup(phase: string): void {
  if (!enabled) return;
  const cpu = process.cpuUsage();
  process.stderr.write(`${STARTUP_TRACE_PREFIX} ${(process.uptime() * 1000).toFixed(0)} ms (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms) ${phase}\n`);
}
