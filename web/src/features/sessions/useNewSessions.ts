import { useEffect, useRef, useState } from 'react';
import { liveStep, seenNewest, type LiveState } from '../../ui/live-growth';

/** Scrolled less than this from the top, the newest sessions are on screen. */
const TOP_SLACK = 40;

const atTop = () => window.scrollY < TOP_SLACK;

/**
 * New sessions arriving at the top of the list (newest first) while the user reads further down: counted for
 * the "N new sessions ↑" pill, or, with follow on, the page goes back to the top. `viewKey` names the filters
 * and the order: a change of either is not news. `total` is the server's count for that view.
 */
export function useNewSessions(total: number | undefined, viewKey: string, newestFirst: boolean, follow: boolean) {
  const [live, setLive] = useState<LiveState | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  useEffect(() => {
    if (total === undefined) return;
    const prev = liveRef.current;
    // the first count of a view, or an order where new sessions do not land at the top, is not news
    if (prev === null || !newestFirst) {
      setLive({ total, viewKey, unseen: 0 });
      return;
    }
    const step = liveStep(prev, total, viewKey, atTop(), follow);
    setLive(step.state);
    if (step.showNewest) window.scrollTo({ top: 0 });
  }, [total, viewKey, newestFirst, follow]);
  useEffect(() => {
    const onScroll = () => setLive((l) => (l ? seenNewest(l, atTop()) : l));
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  const showNewest = () => {
    window.scrollTo({ top: 0 });
    setLive((l) => (l ? { ...l, unseen: 0 } : l));
  };
  return { unseen: live?.unseen ?? 0, showNewest };
}
