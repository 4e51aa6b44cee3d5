import { vi } from 'vitest';
import { runCli } from '../cli/run-cli';

/** A command run in process as a shell would: its exit code and what it wrote to stdout and stderr. */
export async function runCliCaptured(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    return { code: await runCli(args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
