/** Past this many, search's lag is reported as this many ("1,000,000 or more"): a refill of a large archive. */
export const BEHIND_COUNT_CAP = 1_000_000;

/** The one sentence for a search that is catching up: the CLI prints it, the search page shows it. */
export function notYetSearchableNote(events: number): string {
  const n = events >= BEHIND_COUNT_CAP ? `${BEHIND_COUNT_CAP.toLocaleString('en-US')} or more` : events.toLocaleString('en-US');
  return `Search is catching up: the newest ${n} archived event${events === 1 ? ' is' : 's are'} not searchable yet.`;
}
