import type { z } from 'zod';

/**
 * What is wrong with a value given for a flag or a query parameter, in people's words: zod's own say "expected
 * number, received NaN". `given` is the text as written (undefined: zod's message).
 */
export function invalidValueText(i: z.core.$ZodIssue, given: unknown): string {
  if (given === undefined) return i.message;
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
