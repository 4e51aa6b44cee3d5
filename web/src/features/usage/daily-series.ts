import type { UsageResponse } from '../../../../shared/api';

export interface DailyBars {
  /** one object per day: `day` and one numeric field per model */
  rows: Record<string, string | number>[];
  /** models, most used first (the stack order) */
  models: string[];
}

export const UNKNOWN_MODEL = '(unknown model)';

/** The stacked chart's rows: every day of the series, each model's credits or tokens (in + out) on it. */
export function dailyBars(daily: UsageResponse['daily'], metric: 'credits' | 'tokens'): DailyBars {
  const value = (d: UsageResponse['daily'][number]) => (metric === 'credits' ? d.credits : d.tokensIn + d.tokensOut);
  const totals = new Map<string, number>();
  const byDay = new Map<string, Record<string, string | number>>();
  for (const d of daily) {
    const model = d.model ?? UNKNOWN_MODEL;
    totals.set(model, (totals.get(model) ?? 0) + value(d));
    const row = byDay.get(d.day) ?? { day: d.day };
    row[model] = ((row[model] as number | undefined) ?? 0) + value(d);
    byDay.set(d.day, row);
  }
  const models = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([m]) => m);
  const rows = [...byDay.values()].sort((a, b) => String(a.day).localeCompare(String(b.day)));
  for (const r of rows) for (const m of models) r[m] ??= 0;
  return { rows, models };
}
