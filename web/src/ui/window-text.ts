import type { TimeWindow } from '../../../shared/api';

/** A time window in a sentence ("No sessions match x in the last 7 days."); the window buttons' titles say the same. */
export const WINDOW_TEXT: Record<TimeWindow, string> = { '24h': 'the last 24 hours', '7d': 'the last 7 days', '30d': 'the last 30 days', '90d': 'the last 90 days', all: 'all time' };

/** " in the last 7 days", or nothing for all time: the end of a sentence about what a window holds. */
export function inWindow(w: TimeWindow): string {
  return w === 'all' ? '' : ` in ${WINDOW_TEXT[w]}`;
}
