// Watching a running agent: rows that arrive while the user reads elsewhere are counted ("N new events ↓"), or,
// with Follow live on, the newest row is brought into view. Only growth of the same view counts: a fold or a
// filter changes the row count too, and is not news. Pure, so the rule is tested.

export interface LiveState {
  total: number;
  viewKey: string;
  unseen: number;
}

export interface LiveStep {
  state: LiveState;
  /** bring the last row into view */
  scrollToEnd: boolean;
}

/** The next state when the row count or the view changed. `lastOnScreen` is the last row index on screen. */
export function liveStep(prev: LiveState, total: number, viewKey: string, lastOnScreen: number, follow: boolean): LiveStep {
  if (viewKey !== prev.viewKey || total <= prev.total) return { state: { total, viewKey, unseen: viewKey !== prev.viewKey ? 0 : Math.min(prev.unseen, total) }, scrollToEnd: false };
  const added = total - prev.total;
  if (follow) return { state: { total, viewKey, unseen: 0 }, scrollToEnd: true };
  // the user was reading the end and the new rows are in view: nothing to point at
  if (lastOnScreen >= total - 1) return { state: { total, viewKey, unseen: 0 }, scrollToEnd: false };
  return { state: { total, viewKey, unseen: prev.unseen + added }, scrollToEnd: false };
}

/** Scrolling to the end has shown the new rows. */
export const seenAtEnd = (s: LiveState, lastOnScreen: number): LiveState => (s.unseen > 0 && lastOnScreen >= s.total - 1 ? { ...s, unseen: 0 } : s);
