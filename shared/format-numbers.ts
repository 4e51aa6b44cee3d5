// One way to print counts and AI credits, for the pages and the command line alike: the same figure reads the
// same wherever it is shown (the exact value is in every JSON answer).

const grouped = new Intl.NumberFormat('en-US');

/** 12,345 */
export function formatCount(n: number): string {
  return grouped.format(n);
}

/** "1 session", "2 sessions", "12,345 events": a count with its noun in the number it takes. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** AI credits: 1,549 from 100 up, 12.34 from 1 up, 0.052 below; "—" when the calls carried no credit data (unknown is not zero). */
export function formatCredits(credits: number | null): string {
  if (credits === null) return '—';
  if (credits === 0) return '0';
  // the bounds are where the rounding of the form below would reach the next one ("100.00", "1.0")
  if (credits >= 99.995) return grouped.format(Math.round(credits));
  return credits >= 0.995 ? credits.toFixed(2) : credits.toPrecision(2);
}
