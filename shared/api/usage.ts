import { z } from 'zod';
import { TimeWindow } from './common';

// Usage (issue 17): requests, model calls, tokens and AI credits over a window, per model, repository or day.
//
// Counting rules:
// - Credits are Σ `copilotUsageNanoAiu` / 10⁹ over canonical model calls (INTEROP §5); 1 credit = US$0.01.
//   Calls that carry no credit data are counted apart (`callsWithoutCredits`), never given a guessed value:
//   `creditsEstimated` is the part of `credits` that is an estimate, and it stays 0 until an estimate exists.
// - Requests are canonical user messages; model calls are canonical `llm_request` events; tokens are their
//   inputTokens / outputTokens / cachedTokens as written (cached tokens are part of the input tokens).
// - A day is a UTC calendar day of the call's start time.

export const NANO_PER_CREDIT = 1_000_000_000;
export const USD_PER_CREDIT = 0.01;

/** Credits from a nano-AIU sum: null stays null (no credit data), never 0. */
export function creditsOf(nano: number | null | undefined): number | null {
  return nano === null || nano === undefined ? null : nano / NANO_PER_CREDIT;
}

export const UsageBy = z.enum(['model', 'repository', 'day']);
export type UsageBy = z.infer<typeof UsageBy>;

export const UsageQuery = z.object({
  window: TimeWindow.default('7d'),
  /** one repository; '' = sessions without one */
  repo: z.string().max(400).optional(),
  by: UsageBy.default('model'),
});
export type UsageQuery = z.input<typeof UsageQuery>;
export type UsageParams = z.output<typeof UsageQuery>;

export const UsageTotals = z.object({
  requests: z.number(),
  modelCalls: z.number(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  tokensCached: z.number(),
  /** tokensCached / tokensIn; null when no input tokens */
  cacheHitRatio: z.number().nullable(),
  credits: z.number(),
  /** the exact sum, as an integer (credits × 10⁹) */
  creditsNano: z.number(),
  creditsEstimated: z.number(),
  usd: z.number(),
  /** model calls with no copilotUsageNanoAiu: counted here, not guessed */
  callsWithoutCredits: z.number(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

export const UsageRow = UsageTotals.extend({
  /** the model, the repository (null: no repository) or the UTC day (YYYY-MM-DD) */
  key: z.string().nullable(),
});
export type UsageRow = z.infer<typeof UsageRow>;

export const UsageResponse = z.object({
  window: TimeWindow,
  by: UsageBy,
  totals: UsageTotals,
  rows: z.array(UsageRow),
  /** credits and tokens per UTC day and model, for the stacked chart */
  daily: z.array(z.object({ day: z.string(), model: z.string().nullable(), credits: z.number(), tokensIn: z.number(), tokensOut: z.number(), modelCalls: z.number() })),
});
export type UsageResponse = z.infer<typeof UsageResponse>;
