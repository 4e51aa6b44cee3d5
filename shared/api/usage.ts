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
// - Copilot CLI sessions (INTEROP §3) write per call only output tokens; input, cache and credits are their
//   `session.shutdown` totals per model, split over that model's calls by output tokens (server/usage/cli-usage.ts).
//   Those splits are estimates: `estimated` is true and `tokensInEstimated`, `tokensCachedEstimated` and
//   `creditsEstimated` say how much of each figure they are. Split calls are not in `callsWithoutCredits`. A CLI
//   session without a shutdown (running, crashed) adds nothing but its output tokens: `sessionsWithoutUsage`.

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
  /** true when part of these figures is CLI session totals split over calls or days (INTEROP §3): marked "estimated" */
  estimated: z.boolean().optional(),
  /** how much of tokensIn / tokensCached is such a split (creditsEstimated says it for credits) */
  tokensInEstimated: z.number(),
  tokensCachedEstimated: z.number(),
  /** CLI sessions with calls here and no session.shutdown: their input, cache and credits are unknown */
  sessionsWithoutUsage: z.number(),
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
  daily: z.array(
    z.object({ day: z.string(), model: z.string().nullable(), credits: z.number(), tokensIn: z.number(), tokensOut: z.number(), modelCalls: z.number(), estimated: z.boolean() }),
  ),
});
export type UsageResponse = z.infer<typeof UsageResponse>;

/**
 * GET /api/usage/cache: the cached share of input tokens per model call (cachedTokens / inputTokens) and the
 * cache breaks: calls whose share fell by at least CACHE_BREAK_DROP below the previous call of the same
 * conversation. A conversation is one session's log and one model: subagents and utility requests (title,
 * summarize) have logs of their own, so they are never compared with the main conversation, and a model
 * switch starts a new cache rather than breaking one. Calls with no cachedTokens, or under 1,024 input
 * tokens (too small to cache), are not compared.
 */
export const CACHE_BREAK_DROP = 0.3;
export const CACHE_BREAK_FROM = 0.5;
export const CACHE_MIN_TOKENS = 1024;

export const CacheQuery = z.object({
  window: TimeWindow.default('7d'),
  repo: z.string().max(400).optional(),
  session: z.string().max(200).optional(),
});
export type CacheQuery = z.input<typeof CacheQuery>;
export type CacheParams = z.output<typeof CacheQuery>;

export const CacheBreak = z.object({
  eventId: z.number(),
  sessionId: z.string(),
  sessionTitle: z.string().nullable(),
  ts: z.number().nullable(),
  model: z.string().nullable(),
  tokensIn: z.number(),
  share: z.number(),
  previousShare: z.number(),
  previousEventId: z.number(),
});
export type CacheBreak = z.infer<typeof CacheBreak>;

export const CacheResponse = z.object({
  /** calls compared with the one before them in their conversation */
  callsCompared: z.number(),
  totalBreaks: z.number(),
  /** the newest breaks first, at most 200 */
  breaks: z.array(CacheBreak),
  byModel: z.array(z.object({ model: z.string().nullable(), calls: z.number(), tokensIn: z.number(), tokensCached: z.number(), share: z.number().nullable(), breaks: z.number() })),
});
export type CacheResponse = z.infer<typeof CacheResponse>;
