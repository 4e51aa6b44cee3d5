import fs from 'node:fs';
import { vi, type MockInstance } from 'vitest';

/**
 * Makes `fs[fn]` fail on `target` the way the kernel refuses a non-root user (EACCES), and pass every other path to
 * the real function. Tests run as root, where chmod denies nothing. Restore with the returned spy's mockRestore (or
 * vi.restoreAllMocks).
 */
export function denyAccess(fn: 'openSync' | 'readdirSync', target: string, message = 'EACCES: permission denied'): MockInstance {
  const real = fs[fn] as (...a: unknown[]) => unknown;
  return vi.spyOn(fs, fn).mockImplementation(((p: fs.PathLike, ...rest: unknown[]) => {
    if (p === target) throw Object.assign(new Error(message), { code: 'EACCES' });
    return real(p, ...rest);
  }) as never);
}
