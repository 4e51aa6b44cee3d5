import type { z } from 'zod';
import { CliError } from '../cli/cli-error';
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
  throw new CliError('bad_request', `--${rename[field] ?? field}: ${flagProblem(i, defined[field])}`);
}

/** What is wrong with a flag's value, in people's words (zod's own say "expected number, received NaN"). */
function flagProblem(i: z.core.$ZodIssue, given: unknown): string {
  const shown = typeof given === 'string' ? `"${given}"` : String(given);
  switch (i.code) {
    case 'invalid_type':
      if (i.expected === 'number') return `${shown} is not a number`;
      if (i.expected === 'int') return `${shown} is not a whole number`;
      break;
    case 'invalid_value':
      return `${shown} is not one of ${i.values.map(String).join(', ')}`;
    case 'too_small':
      return `${String(given)} is too small (at least ${String(i.minimum)})`;
    case 'too_big':
      return `${String(given)} is too large (at most ${String(i.maximum)})`;
    default:
      break;
  }
  return i.message;
}

export function flag(opts: Options, name: string): string | undefined {
  const v = opts.flags[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
}
