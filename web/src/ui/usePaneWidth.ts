import { useCallback, useEffect, useState, type RefObject } from 'react';
import { clampPaneWidth, paneLimits, type PaneLimits } from './pane-width';

export interface PaneWidthOptions {
  /** localStorage key: the width chosen is remembered */
  storageKey: string;
  /** the default, as a share of the body's width */
  share: number;
  paneMin: number;
  mainMin: number;
}

/** A side pane's width inside `bodyRef`: remembered, and kept within what the body's width allows. */
export function usePaneWidth(bodyRef: RefObject<HTMLElement | null>, o: PaneWidthOptions): { width: number; limits: PaneLimits; setWidth: (w: number) => void } {
  const [bodyWidth, setBodyWidth] = useState(0);
  const [chosen, setChosen] = useState<number | null>(() => {
    try {
      const n = Number(localStorage.getItem(o.storageKey));
      return Number.isFinite(n) && n > 0 ? n : null;
    } catch {
      return null;
    }
  });
  useEffect(() => {
    const el = bodyRef.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => setBodyWidth(entry.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, [bodyRef]);
  const limits = paneLimits(bodyWidth || window.innerWidth, o.mainMin, o.paneMin);
  const width = clampPaneWidth(chosen ?? (bodyWidth || window.innerWidth) * o.share, limits);
  const setWidth = useCallback(
    (w: number) => {
      setChosen(w);
      try {
        localStorage.setItem(o.storageKey, String(Math.round(w)));
      } catch {
        /* private mode: this page only */
      }
    },
    [o.storageKey],
  );
  return { width, limits, setWidth };
}
