import { spawn } from 'node:child_process';

/** Runs a command (no shell) and returns its wall time and stdout; used for the rg and jq baselines. */
export function timedCommand(cmd: string, args: string[], input?: string): Promise<{ ms: number; stdout: string; code: number }> {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', () => resolve({ ms: NaN, stdout: '', code: -1 }));
    child.on('close', (code) => resolve({ ms: performance.now() - start, stdout: Buffer.concat(out).toString('utf8'), code: code ?? -1 }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

export async function hasCommand(cmd: string): Promise<boolean> {
  const r = await timedCommand(cmd, ['--version']);
  return r.code === 0;
}
