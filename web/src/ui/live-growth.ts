// Watching something grow (a running agent's rows, new sessions): what arrives while the user reads elsewhere is
// counted ("N new events ↓", "N new sessions ↑"), or, with follow on, the newest is brought into view. Only growth
// of the same view counts: a fold, a filter or another order changes the count too, and is not news. Where the
// newest lands (the end of the session tree, the top of the sessions list) is the caller's: it says whether that
// place is on screen. Pure, so the rule is tested.

export interface LiveState {
  total: number;
  viewKey: string;
  unseen: number;
}

export interface LiveStep {
  state: LiveState;
  /** bring the newest into view */
  showNewest: boolean;
}

/** The next state when the count or the view changed. `newestInView`: the place where new items land is on screen. */
export function liveStep(prev: LiveState, total: number, viewKey: string, newestInView: boolean, follow: boolean): LiveStep {
  if (viewKey !== prev.viewKey || total <= prev.total) return { state: { total, viewKey, unseen: viewKey !== prev.viewKey ? 0 : Math.min(prev.unseen, total) }, showNewest: false };
  const added = total - prev.total;
  if (follow) return { state: { total, viewKey, unseen: 0 }, showNewest: true };
  // the user was reading where they arrive: nothing to point at
  if (newestInView) return { state: { total, viewKey, unseen: 0 }, showNewest: false };
  return { state: { total, viewKey, unseen: prev.unseen + added }, showNewest: false };
}

/** Reaching the place of the newest has shown them. */
export const seenNewest = (s: LiveState, newestInView: boolean): LiveState => (s.unseen > 0 && newestInView ? { ...s, unseen: 0 } : s);
