// The width of a side pane set by a splitter: clamped to what leaves the main view usable, moved by keys.

export interface PaneLimits {
  min: number;
  max: number;
}

export const clampPaneWidth = (width: number, { min, max }: PaneLimits) => Math.round(Math.max(min, Math.min(Math.max(min, max), width)));

/** The pane's new width for a key on its splitter (the pane sits at the end: ← widens it), or null. */
export function paneWidthForKey(key: string, shift: boolean, width: number, limits: PaneLimits): number | null {
  const step = shift ? 96 : 24;
  switch (key) {
    case 'ArrowLeft':
      return clampPaneWidth(width + step, limits);
    case 'ArrowRight':
      return clampPaneWidth(width - step, limits);
    case 'Home':
      return clampPaneWidth(limits.max, limits);
    case 'End':
      return clampPaneWidth(limits.min, limits);
    default:
      return null;
  }
}

/** The widest the pane may be inside a body of `bodyWidth`, keeping `mainMin` for the main view. */
export const paneLimits = (bodyWidth: number, mainMin: number, paneMin: number): PaneLimits => ({ min: paneMin, max: Math.max(paneMin, bodyWidth - mainMin) });
