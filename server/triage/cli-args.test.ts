import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli/cli-error';
import { parseFlags } from './cli-args';

// A bad flag's message is for people: the flag, what was given and what it takes, never zod's "received NaN".
const schema = z.object({
  min: z.coerce.number().int().min(-1).optional(),
  window: z.enum(['24h', '7d', '30d', '90d', 'all']).optional(),
  perGroup: z.coerce.number().int().min(1).max(100).optional(),
});
const problem = (values: Record<string, unknown>): string => {
  try {
    parseFlags(schema, values, { perGroup: 'limit' });
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    return (err as Error).message;
  }
  throw new Error('no problem');
};

describe('parseFlags', () => {
  it('names the flag, the value given and what it takes', () => {
    expect(problem({ min: 'abc' })).toBe('--min: "abc" is not a number');
    expect(problem({ min: '1.5' })).toBe('--min: "1.5" is not a whole number');
    expect(problem({ window: '9q' })).toBe('--window: "9q" is not one of 24h, 7d, 30d, 90d, all');
    expect(problem({ perGroup: '0' })).toBe('--limit: 0 is too small (at least 1)');
    expect(problem({ perGroup: '1000' })).toBe('--limit: 1000 is too large (at most 100)');
  });

  it('passes what is valid, with the schema’s coercions', () => {
    expect(parseFlags(schema, { min: '5000', window: '7d', perGroup: undefined })).toEqual({ min: 5000, window: '7d' });
  });
});
