import { describe, expect, it } from 'vitest';
import { dailyBars } from './daily-series';

describe('dailyBars', () => {
  const daily = [
    { day: '2026-11-30', model: 'gpt-4.1', credits: 1.5, tokensIn: 100, tokensOut: 10, modelCalls: 2, estimated: false },
    { day: '2026-11-29', model: 'gpt-4.1', credits: 0.5, tokensIn: 50, tokensOut: 5, modelCalls: 1, estimated: false },
    { day: '2026-11-30', model: null, credits: 0, tokensIn: 900, tokensOut: 0, modelCalls: 1, estimated: false },
  ];
  it('one row per day in order, every model present, stacked most-used first', () => {
    expect(dailyBars(daily, 'credits')).toEqual({
      models: ['gpt-4.1', '(unknown model)'],
      rows: [
        { day: '2026-11-29', s0: 0.5, s1: 0 },
        { day: '2026-11-30', s0: 1.5, s1: 0 },
      ],
    });
    expect(dailyBars(daily, 'tokens').models).toEqual(['(unknown model)', 'gpt-4.1']);
    expect(dailyBars(daily, 'tokens').rows[1]).toEqual({ day: '2026-11-30', s0: 900, s1: 110 });
  });

  it('models named day or __proto__ (log text) neither overwrite the day nor vanish', () => {
    const odd = [
      { day: '2026-11-30', model: 'day', credits: 2, tokensIn: 0, tokensOut: 0, modelCalls: 1, estimated: false },
      { day: '2026-11-30', model: '__proto__', credits: 1, tokensIn: 0, tokensOut: 0, modelCalls: 1, estimated: false },
    ];
    expect(dailyBars(odd, 'credits')).toEqual({ models: ['day', '__proto__'], rows: [{ day: '2026-11-30', s0: 2, s1: 1 }] });
  });
});
