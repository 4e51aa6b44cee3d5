import { describe, expect, it } from 'vitest';
import type { UsageResponse, UsageTotals } from '../../shared/api';
import { formatUsage } from './format-cli';

const none: UsageTotals = {
  requests: 0,
  modelCalls: 0,
  tokensIn: 0,
  tokensOut: 0,
  tokensCached: 0,
  cacheHitRatio: null,
  credits: 0,
  creditsNano: 0,
  creditsEstimated: 0,
  usd: 0,
  callsWithoutCredits: 0,
  tokensInEstimated: 0,
  tokensCachedEstimated: 0,
  sessionsWithoutUsage: 0,
};

describe('formatUsage', () => {
  it("prints credits as the pages do, and the estimate's credits rounded alike", () => {
    const a = { ...none, modelCalls: 51_626, tokensIn: 166_239_438, tokensOut: 12_236_966, tokensCached: 14_380_687, cacheHitRatio: 0.0866, credits: 399.291, usd: 3.99291, callsWithoutCredits: 42_846 };
    const b = { ...none, modelCalls: 1, tokensIn: 3_157, tokensOut: 333, cacheHitRatio: 0, credits: 0.087, usd: 0.00087 };
    const totals = { ...none, requests: 39_370, modelCalls: 51_627, tokensIn: 166_242_595, tokensOut: 12_237_299, tokensCached: 14_380_687, cacheHitRatio: 0.0866, credits: 1549.0278, usd: 15.490278, callsWithoutCredits: 42_846, estimated: true, tokensInEstimated: 312_756_105, tokensCachedEstimated: 125_137_061, creditsEstimated: 287.2392273 };
    const r: UsageResponse = { window: 'all', by: 'model', totals, rows: [{ ...a, key: 'claude-sonnet-4' }, { ...b, key: null }], daily: [] };
    expect(formatUsage(r)).toBe(
      [
        'Usage, all time, by model (1 credit = US$0.01)',
        '',
        'model            requests  model calls    tokens in  tokens out      cached  cache hit  credits     US$  no credit data',
        'claude-sonnet-4         —       51,626  166,239,438  12,236,966  14,380,687       8.7%      399   $3.99          42,846',
        '(unknown model)         —            1        3,157         333           0       0.0%    0.087   $0.00               0',
        'total              39,370       51,627  166,242,595  12,237,299  14,380,687       8.7%    1,549  $15.49          42,846',
        '42,846 model calls carry no credit data (copilotUsageNanoAiu): counted apart, not estimated.',
        'Estimated (Copilot CLI session totals split over their calls by output tokens): 312,756,105 tokens in, 125,137,061 cached, 287 credits.',
        '',
      ].join('\n'),
    );
  });

  it('says a window without model calls in one line, and how to widen it', () => {
    expect(formatUsage({ window: '7d', by: 'model', totals: none, rows: [], daily: [] })).toBe('Usage, last 7 days: no model calls (--window all for every one).\n');
    expect(formatUsage({ window: 'all', by: 'day', totals: none, rows: [], daily: [] })).toBe('Usage, all time: no model calls.\n');
  });
});
