import type { z } from 'zod';
import type { Options } from '../config';

/** A command's flags validated by the API's own schema; a bad flag is one line naming it. */
export function parseFlags<S extends z.ZodType>(schema: S, values: Record<string, unknown>): { ok: true; data: z.output<S> } | { ok: false; message: string } {
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && typeof v !== 'boolean'));
  const r = schema.safeParse(defined);
  if (r.success) return { ok: true, data: r.data };
  const i = r.error.issues[0];
  return { ok: false, message: `--${String(i.path[0] ?? '?')}: ${i.message}` };
}

export function flag(opts: Options, name: string): string | undefined {
  const v = opts.flags[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
}
