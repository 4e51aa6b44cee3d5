import type { TimeWindow } from '../../../shared/api';
import { TIME_WINDOWS, WINDOW_WORDS } from '../../../shared/time-window';

/** A time window in a sentence ("No sessions match x in the last 7 days."); the window buttons' titles say the same. */
export const WINDOW_TEXT = Object.fromEntries(TIME_WINDOWS.map((w) => [w, w === 'all' ? WINDOW_WORDS[w] : `the ${WINDOW_WORDS[w]}`])) as Record<TimeWindow, string>;

/** " in the last 7 days", or nothing for all time: the end of a sentence about what a window holds. */
export function inWindow(w: TimeWindow): string {
  return w === 'all' ? '' : ` in ${WINDOW_TEXT[w]}`;
}
