import { memo, useRef, useState } from 'react';
import type { TimeAxis } from '../../../../shared/api';
import { formatDuration } from '../../ui/format';
import { idleBands } from './time-axis';

export interface MinimapProps {
  axis: TimeAxis;
  histogram: { bins: number[]; errors: number[] };
  zoom: readonly [number, number];
  onZoom: (range: [number, number] | null) => void;
}

const MIN_WIDTH = 0.002;

/**
 * The whole session at a glance (events started per slice, failures in red, idle gaps hatched) with the
 * zoomed range outlined: drag across it to zoom the waterfall to that range, click to move the range,
 * double-click to see everything again.
 */
export function Minimap({ axis, histogram, zoom, onZoom }: MinimapProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const posOf = (clientX: number) => {
    const r = ref.current!.getBoundingClientRect();
    return Math.max(0, Math.min(1, (clientX - r.left) / Math.max(1, r.width)));
  };
  const zoomed = zoom[0] > 0 || zoom[1] < 1;
  const sel = drag ? [Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)] : zoom;
  return (
    <div
      className="minimap"
      ref={ref}
      role="slider"
      aria-label="Time range shown in the waterfall: drag to zoom, double-click to reset"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(zoom[0] * 100)}
      aria-valuetext={zoomed ? `${Math.round(zoom[0] * 100)}% to ${Math.round(zoom[1] * 100)}% of the session` : 'the whole session'}
      tabIndex={0}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        const x = posOf(e.clientX);
        setDrag({ from: x, to: x });
      }}
      onPointerMove={(e) => {
        if (drag) setDrag({ from: drag.from, to: posOf(e.clientX) });
      }}
      onPointerUp={(e) => {
        if (!drag) return;
        const to = posOf(e.clientX);
        const a = Math.min(drag.from, to);
        const b = Math.max(drag.from, to);
        setDrag(null);
        if (b - a >= MIN_WIDTH * 2) onZoom([a, b]);
        else if (zoomed) {
          // A click moves the current range to be centred there.
          const w = zoom[1] - zoom[0];
          const start = Math.max(0, Math.min(1 - w, a - w / 2));
          onZoom([start, start + w]);
        }
      }}
      onDoubleClick={() => onZoom(null)}
      onKeyDown={(e) => {
        const w = zoom[1] - zoom[0];
        if (e.key === 'Escape' || e.key === '0') onZoom(null);
        else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          const d = (e.key === 'ArrowLeft' ? -1 : 1) * w * 0.25;
          const start = Math.max(0, Math.min(1 - w, zoom[0] + d));
          onZoom([start, start + w]);
        } else if (e.key === '+' || e.key === '=') {
          const c = (zoom[0] + zoom[1]) / 2;
          onZoom([Math.max(0, c - w / 4), Math.min(1, c + w / 4)]);
        } else if (e.key === '-') {
          const c = (zoom[0] + zoom[1]) / 2;
          const a = Math.max(0, c - w);
          const b = Math.min(1, c + w);
          onZoom(a <= 0 && b >= 1 ? null : [a, b]);
        } else return;
        e.preventDefault();
      }}
    >
      <Histogram axis={axis} histogram={histogram} />
      {(zoomed || drag) && (
        <>
          <div className="minimap-shade" style={{ left: 0, width: `${sel[0] * 100}%` }} />
          <div className="minimap-window" style={{ left: `${sel[0] * 100}%`, width: `${(sel[1] - sel[0]) * 100}%` }} />
          <div className="minimap-shade" style={{ left: `${sel[1] * 100}%`, right: 0 }} />
        </>
      )}
    </div>
  );
}

const Histogram = memo(function Histogram({ axis, histogram }: { axis: TimeAxis; histogram: MinimapProps['histogram'] }) {
  const n = histogram.bins.length;
  const max = Math.max(1, ...histogram.bins);
  // Square root: one busy slice must not flatten everything else.
  const h = (v: number) => (v === 0 ? 0 : 2 + 26 * Math.sqrt(v / max));
  return (
    <svg className="minimap-svg" viewBox={`0 0 ${n} 30`} preserveAspectRatio="none" aria-hidden="true">
      {idleBands(axis, [0, 1]).map((b, i) => (
        <rect key={`i${i}`} className="minimap-idle" x={b.x0 * n} width={(b.x1 - b.x0) * n} y={0} height={30}>
          <title>idle {formatDuration(b.ms)}</title>
        </rect>
      ))}
      {histogram.bins.map((v, i) => (v > 0 ? <rect key={i} className="minimap-bin" x={i} width={0.86} y={30 - h(v)} height={h(v)} /> : null))}
      {histogram.errors.map((v, i) => (v > 0 ? <rect key={`e${i}`} className="minimap-err" x={i} width={0.86} y={30 - h(v)} height={h(v)} /> : null))}
    </svg>
  );
});
