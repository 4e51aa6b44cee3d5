// The waterfall's keys (issue 18), after Jaeger's trace view where they do not clash: a/d pan and A/D pan a whole
// view as there; Jaeger's zoom keys (↑/↓) move through the tree here, so + and − zoom, 0 shows everything, z zooms
// to the selected span's request, Z to the span itself, p shows its critical path (c is taken by `g c`).
import { panBy, PAN_STEP, zoomBy, ZOOM_STEP, type Zoom } from './zoom';

export type TimelineAction =
  | { type: 'zoom-request' }
  | { type: 'zoom-span' }
  | { type: 'zoom'; factor: number }
  | { type: 'reset' }
  | { type: 'pan'; share: number }
  | { type: 'critical-path' };

/** Every key of the waterfall, what it does (the `?` overlay lists this table) and its action. */
export const TIMELINE_KEYS: readonly { keys: readonly string[]; does: string; action: TimelineAction }[] = [
  { keys: ['z'], does: "Zoom to the selected span's request", action: { type: 'zoom-request' } },
  { keys: ['Z'], does: 'Zoom to the selected span', action: { type: 'zoom-span' } },
  { keys: ['+', '='], does: 'Zoom in (also Ctrl/⌘ + wheel, or the wheel over the ruler)', action: { type: 'zoom', factor: 1 / ZOOM_STEP } },
  { keys: ['-'], does: 'Zoom out', action: { type: 'zoom', factor: ZOOM_STEP } },
  { keys: ['0'], does: 'Show the whole session', action: { type: 'reset' } },
  { keys: ['a'], does: 'Pan left', action: { type: 'pan', share: -PAN_STEP } },
  { keys: ['d'], does: 'Pan right', action: { type: 'pan', share: PAN_STEP } },
  { keys: ['A'], does: 'Pan left by a whole view', action: { type: 'pan', share: -1 } },
  { keys: ['D'], does: 'Pan right by a whole view', action: { type: 'pan', share: 1 } },
  { keys: ['p'], does: "Show or hide the request's critical path", action: { type: 'critical-path' } },
];

export function timelineAction(key: string): TimelineAction | null {
  return TIMELINE_KEYS.find((k) => k.keys.includes(key))?.action ?? null;
}

/** The zoom after a zoom or pan key; undefined for the actions that need more than the zoom (z, Z, p). */
export function zoomAfter(action: TimelineAction, zoom: Zoom | null): [number, number] | null | undefined {
  switch (action.type) {
    case 'zoom':
      return zoomBy(zoom, action.factor);
    case 'pan':
      return panBy(zoom, action.share);
    case 'reset':
      return null;
    default:
      return undefined;
  }
}
