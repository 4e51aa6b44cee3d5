import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';
import type { HistogramResponse, ScatterResponse, TimeseriesResponse } from '../../../../shared/api';
import { formatCount, formatDuration } from '../../ui/format';
import { bucketLabel, bucketRange, bucketTime, formatTokens } from './format';

// Charts read their colours from the theme's custom properties, so they follow light and dark mode without
// a re-render; recharts passes these strings to SVG fill/stroke, where var() resolves.
const AXIS = { fill: 'var(--fg-muted)', fontSize: 11 };
const GRID = 'var(--border-muted)';
const TOOLTIP = {
  contentStyle: { background: 'var(--bg)', border: '1px solid var(--border)', borderRadius: 6, color: 'var(--fg)', fontSize: 12 },
  labelStyle: { color: 'var(--fg)', fontWeight: 600 },
  itemStyle: { color: 'var(--fg)' },
  cursor: { fill: 'var(--bg-hover)' },
};

type Clickable<T> = { payload?: T };

export interface HistogramBar {
  lo: number;
  hi: number;
  count: number;
  errors: number;
  ok: number;
  label: string;
}

export function histogramBars(h: HistogramResponse): HistogramBar[] {
  return h.buckets.map((b) => ({ ...b, ok: b.count - b.errors, label: bucketLabel(b.lo, b.hi) }));
}

/** Durations on log-spaced (1-2-5) buckets; a click on a bar lists the calls in it. */
export function DurationHistogram({ data, onBar }: { data: HistogramResponse; onBar: (b: HistogramBar, errorsOnly: boolean) => void }) {
  const bars = histogramBars(data);
  return (
    <figure className="chart" aria-label="Duration histogram">
      <figcaption>
        Duration, log scale <span className="muted">· {formatCount(data.total)} calls · click a bar for its calls</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 4, left: 0 }} barCategoryGap={2}>
          <CartesianGrid vertical={false} stroke={GRID} />
          <XAxis dataKey="label" tick={AXIS} stroke={GRID} interval="preserveStartEnd" />
          <YAxis tick={AXIS} stroke={GRID} allowDecimals={false} width={48} />
          <Tooltip
            {...TOOLTIP}
            labelFormatter={(_l, p) => {
              const b = (p?.[0]?.payload as HistogramBar | undefined) ?? null;
              return b ? bucketRange(b.lo, b.hi) : '';
            }}
            formatter={(v, name) => [formatCount(Number(v)), name === 'ok' ? 'ok' : 'errors']}
          />
          <Bar dataKey="ok" stackId="a" fill="var(--accent)" cursor="pointer" onClick={(d: Clickable<HistogramBar>) => d.payload && onBar(d.payload, false)} isAnimationActive={false} />
          <Bar dataKey="errors" stackId="a" fill="var(--danger)" cursor="pointer" onClick={(d: Clickable<HistogramBar>) => d.payload && onBar(d.payload, true)} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export interface SeriesPoint {
  t: number;
  ok: number;
  errors: number;
  calls: number;
  label: string;
}

/** Calls and errors per hour or day; a click on a bar lists that bucket's calls (or its errors). */
export function CallsTimeseries({ data, onBar }: { data: TimeseriesResponse; onBar: (p: SeriesPoint, errorsOnly: boolean) => void }) {
  const points: SeriesPoint[] = data.points.map((p) => ({ ...p, ok: p.calls - p.errors, label: bucketTime(p.t, data.interval) }));
  return (
    <figure className="chart" aria-label="Calls and errors over time">
      <figcaption>
        Calls and errors per {data.interval} <span className="muted">· click a bar for its calls</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 4, left: 0 }} barCategoryGap={1}>
          <CartesianGrid vertical={false} stroke={GRID} />
          <XAxis dataKey="label" tick={AXIS} stroke={GRID} minTickGap={24} />
          <YAxis tick={AXIS} stroke={GRID} allowDecimals={false} width={48} />
          <Tooltip {...TOOLTIP} formatter={(v, name) => [formatCount(Number(v)), name === 'ok' ? 'ok' : 'errors']} />
          <Bar dataKey="ok" stackId="a" fill="var(--accent)" cursor="pointer" onClick={(d: Clickable<SeriesPoint>) => d.payload && onBar(d.payload, false)} isAnimationActive={false} />
          <Bar dataKey="errors" stackId="a" fill="var(--danger)" cursor="pointer" onClick={(d: Clickable<SeriesPoint>) => d.payload && onBar(d.payload, true)} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

type ScatterPoint = ScatterResponse['points'][number];

/** Time to first token against input tokens, one point per model call; a click opens the call in its session. */
export function TtftScatter({ data, onPoint }: { data: ScatterResponse; onPoint: (p: ScatterPoint) => void }) {
  return (
    <figure className="chart" aria-label="Time to first token against input tokens">
      <figcaption>
        TTFT vs input tokens{' '}
        <span className="muted">
          · {data.points.length < data.total ? `${formatCount(data.points.length)} of ${formatCount(data.total)} calls (evenly sampled)` : `${formatCount(data.total)} calls`} · click a point to open it
        </span>
      </figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <ScatterChart margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={GRID} />
          <XAxis type="number" dataKey="tokensIn" name="input tokens" tick={AXIS} stroke={GRID} tickFormatter={(v: number) => formatTokens(v)} />
          <YAxis type="number" dataKey="ttft" name="ttft" tick={AXIS} stroke={GRID} width={56} tickFormatter={(v: number) => formatDuration(v)} />
          <ZAxis range={[18, 18]} />
          <Tooltip
            {...TOOLTIP}
            cursor={{ stroke: 'var(--border)' }}
            formatter={(v, name) => (name === 'ttft' ? [formatDuration(Number(v)), 'TTFT'] : [formatCount(Number(v)), 'input tokens'])}
          />
          <Scatter data={data.points} fill="var(--accent)" fillOpacity={0.6} cursor="pointer" onClick={(d: Clickable<ScatterPoint>) => d.payload && onPoint(d.payload)} isAnimationActive={false} />
        </ScatterChart>
      </ResponsiveContainer>
    </figure>
  );
}
