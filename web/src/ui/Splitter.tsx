import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { clampPaneWidth, paneWidthForKey, type PaneLimits } from './pane-width';

export interface SplitterProps {
  /** width of the pane after the splitter, px */
  width: number;
  limits: PaneLimits;
  onChange: (width: number) => void;
  label: string;
}

/** A vertical splitter before a side pane: drag it, or focus it and use ←/→ (Shift: bigger steps), Home/End. */
export function Splitter({ width, limits, onChange, label }: SplitterProps) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus({ preventScroll: true });
    drag.current = { x: e.clientX, width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    onChange(clampPaneWidth(drag.current.width + (drag.current.x - e.clientX), limits));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = paneWidthForKey(e.key, e.shiftKey, width, limits);
    if (next === null) return;
    e.preventDefault();
    onChange(next);
  };
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={limits.min}
      aria-valuemax={limits.max}
      tabIndex={0}
      title={`${label}: drag, or ←/→`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
