import type { UsageResponse } from '../../../../shared/api';

export interface DailyBars {
  /** one object per day: `day` and one numeric field per model, named seriesKey(its index in `models`) */
  rows: Record<string, string | number>[];
  /** models, most used first (the stack order) */
  models: string[];
}

export const UNKNOWN_MODEL = '(unknown model)';

/**
 * The field of a row that holds model `i`. Not the model's name: that is log text, and a model named `day` or
 * `__proto__` would overwrite the row's day or its prototype.
 */
export const seriesKey = (i: number) => `s${i}`;

/** The stacked chart's rows: every day of the series, each model's credits or tokens (in + out) on it. */
export function dailyBars(daily: UsageResponse['daily'], metric: 'credits' | 'tokens'): DailyBars {
  const value = (d: UsageResponse['daily'][number]) => (metric === 'credits' ? d.credits : d.tokensIn + d.tokensOut);
  const totals = new Map<string, number>();
  for (const d of daily) {
    const model = d.model ?? UNKNOWN_MODEL;
    totals.set(model, (totals.get(model) ?? 0) + value(d));
  }
  const models = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([m]) => m);
  const index = new Map(models.map((m, i) => [m, i]));
  const byDay = new Map<string, Record<string, string | number>>();
  for (const d of daily) {
    let row = byDay.get(d.day);
    if (!row) {
      row = { day: d.day };
      for (let i = 0; i < models.length; i++) row[seriesKey(i)] = 0;
      byDay.set(d.day, row);
    }
    const key = seriesKey(index.get(d.model ?? UNKNOWN_MODEL) as number);
    row[key] = (row[key] as number) + value(d);
  }
  const rows = [...byDay.values()].sort((a, b) => String(a.day).localeCompare(String(b.day)));
  return { rows, models };
}
