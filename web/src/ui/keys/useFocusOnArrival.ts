import { useEffect, useRef, type RefObject } from 'react';

/**
 * Gives `ref` focus once it is on screen after a navigation, so that the keys act on the page's main list or
 * tree rather than on the body. Focus the user put somewhere inside the page (a box with autofocus) stays.
 */
export function useFocusOnArrival(ref: RefObject<HTMLElement | null>, ready: boolean): void {
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !ready || !ref.current) return;
    done.current = true;
    const active = document.activeElement;
    const main = document.getElementById('main');
    if (active && active !== document.body && active !== main && main?.contains(active)) return;
    ref.current.focus({ preventScroll: true });
  }, [ready, ref]);
}
