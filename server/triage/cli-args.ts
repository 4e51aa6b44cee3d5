import type { z } from 'zod';
import { CliError } from '../cli/cli-error';
import { invalidValueText } from '../http/invalid-value';
import type { Options } from '../config';

/**
 * A command's flags validated by the API's own schema; a bad flag is a CliError naming it (`rename` maps the
 * API's field names to the command's flag names).
 */
export function parseFlags<S extends z.ZodType>(schema: S, values: Record<string, unknown>, rename: Record<string, string> = {}): z.output<S> {
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && typeof v !== 'boolean'));
  const r = schema.safeParse(defined);
  if (r.success) return r.data;
  const i = r.error.issues[0];
  const field = String(i.path[0] ?? '?');
  throw new CliError('bad_request', `--${rename[field] ?? field}: ${invalidValueText(i, defined[field])}`);
}

export function flag(opts: Options, name: string): string | undefined {
  const v = opts.flags[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
}
