import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageResponse } from '../../../../shared/api';
import { formatCompact, formatCredits } from '../../ui/format';
import { visibleText } from '../../ui/visible-text';
import { dailyBars, seriesKey } from './daily-series';

// Theme colours through custom properties (light and dark follow without a re-render), then fixed hues that
// read on both backgrounds for the models beyond the first.
const SERIES = ['var(--accent)', '#8b5cf6', '#10b981', '#f59e0b', '#ec4899', '#06b6d4', '#84cc16', '#f97316'];
const AXIS = { fill: 'var(--fg-muted)', fontSize: 11 };
const GRID = 'var(--border-muted)';

/** Credits (or tokens) per UTC day, stacked by model. */
export function UsageChart({ daily, metric }: { daily: UsageResponse['daily']; metric: 'credits' | 'tokens' }) {
  const { rows, models } = dailyBars(daily, metric);
  const fmt = (v: number) => (metric === 'credits' ? formatCredits(v) : formatCompact(v));
  return (
    <figure className="chart usage-chart" aria-label={`${metric === 'credits' ? 'AI credits' : 'Tokens'} per day by model`}>
      <figcaption>
        {metric === 'credits' ? 'AI credits' : 'Tokens (in + out)'} per day, by model <span className="muted">· UTC days</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 4, left: 0 }} barCategoryGap={4}>
          <CartesianGrid vertical={false} stroke={GRID} />
          <XAxis dataKey="day" tick={AXIS} stroke={GRID} interval="preserveStartEnd" />
          <YAxis tick={AXIS} stroke={GRID} width={56} tickFormatter={(v: number) => fmt(v)} />
          <Tooltip
            contentStyle={{ background: 'var(--bg)', border: '1px solid var(--border)', borderRadius: 6, color: 'var(--fg)', fontSize: 12 }}
            labelStyle={{ color: 'var(--fg)', fontWeight: 600 }}
            cursor={{ fill: 'var(--bg-hover)' }}
            formatter={(v, name) => [fmt(Number(v)), String(name)]}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: 'var(--fg-muted)' }} />
          {models.map((m, i) => (
            <Bar key={m} dataKey={seriesKey(i)} name={visibleText(m)} stackId="models" fill={SERIES[i % SERIES.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
