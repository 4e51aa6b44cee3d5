import { useCallback, useEffect, useState, type RefObject } from 'react';

/** Ruler labels are 10 px (session.css `.span-tick span`); a pixel more for sub-pixel rounding between canvas and DOM. */
const LABEL_PX = 10;
const SLACK = 1;

/**
 * The width in px of a ruler label, measured with a canvas in the font the ruler uses (so the layout that keeps
 * labels apart is exact, not a guess per character). Changes once web fonts have loaded.
 */
export function useTextMeasure(rootRef: RefObject<HTMLElement | null>, selector: string): (text: string) => number {
  const [font, setFont] = useState<string | null>(null);
  useEffect(() => {
    const read = () => {
      const el = rootRef.current?.querySelector(selector) ?? rootRef.current;
      if (el) setFont(`${LABEL_PX}px ${getComputedStyle(el).fontFamily}`);
    };
    read();
    void document.fonts?.ready.then(read);
  }, [rootRef, selector]);
  return useCallback(
    (text: string) => {
      const ctx = font ? context() : null;
      if (!ctx || !font) return text.length * 6.5 + SLACK;
      ctx.font = font;
      return ctx.measureText(text).width + SLACK;
    },
    [font],
  );
}

let canvas: CanvasRenderingContext2D | null | undefined;
const context = () => (canvas === undefined ? (canvas = document.createElement('canvas').getContext('2d')) : canvas);
