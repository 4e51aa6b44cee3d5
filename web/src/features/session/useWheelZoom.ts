import { useEffect, useRef, type RefObject } from 'react';
import { wheelFactor } from './zoom';

export interface WheelZoomHandlers {
  /** zoom by `factor` (>1 out) keeping `anchor` (0..1 across the waterfall) in place */
  zoom: (factor: number, anchor: number) => void;
  /** move by `share` of the view (horizontal wheel or Shift + wheel over the ruler) */
  pan: (share: number) => void;
}

/**
 * The wheel on the waterfall: Ctrl/⌘ + wheel anywhere over its column zooms around the pointer (the page's own
 * Ctrl + wheel zoom is taken there), the plain wheel over the ruler too; elsewhere the wheel scrolls the rows.
 * Horizontal wheel, or Shift + wheel, over the ruler pans. Events of one frame are added up and applied once.
 */
export function useWheelZoom(scrollRef: RefObject<HTMLElement | null>, handlers: WheelZoomHandlers | undefined): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  const enabled = handlers !== undefined;
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !enabled) return;
    let pending: { factor: number; anchor: number; pan: number } | null = null;
    let frame = 0;
    const flush = () => {
      frame = 0;
      const p = pending;
      pending = null;
      if (!p || !ref.current) return;
      if (p.pan !== 0) ref.current.pan(p.pan);
      if (p.factor !== 1) ref.current.zoom(p.factor, p.anchor);
    };
    const onWheel = (e: WheelEvent) => {
      const ruler = el.querySelector('.span-ruler');
      if (!ruler) return;
      const r = ruler.getBoundingClientRect();
      if (r.width <= 0 || e.clientX < r.left || e.clientX > r.right) return;
      const overRuler = e.target instanceof Element && e.target.closest('.span-table-header') !== null;
      const modifier = e.ctrlKey || e.metaKey;
      if (!modifier && !overRuler) return;
      e.preventDefault();
      pending ??= { factor: 1, anchor: 0.5, pan: 0 };
      const sideways = !modifier && (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY));
      if (sideways) pending.pan += (e.shiftKey ? e.deltaY || e.deltaX : e.deltaX) / r.width;
      else {
        pending.factor *= wheelFactor(e.deltaY, e.deltaMode);
        pending.anchor = (e.clientX - r.left) / r.width;
      }
      if (!frame) frame = requestAnimationFrame(flush);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      el.removeEventListener('wheel', onWheel);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [scrollRef, enabled]);
}
