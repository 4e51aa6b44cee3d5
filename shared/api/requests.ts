import { z } from 'zod';

/**
 * GET /api/sessions/:id/spans/requests: the session's requests-only view, one row per user request with the
 * totals of the work under it in the span tree (its model calls, tools and child sessions' work). Counting
 * rules are those of usage (shared/api/usage.ts): model calls and their tokens and credits are canonical
 * `llm_request` events; errors are every failed event under the request, as the requests table counts them.
 */
export const RequestTotals = z.object({
  /** the user_message event: what Enter opens in the tree */
  id: z.number(),
  label: z.string(),
  start: z.number().nullable(),
  /** from the request to the end of the last span under it; null when it has no time */
  duration: z.number().nullable(),
  modelCalls: z.number(),
  toolCalls: z.number(),
  /** over the model calls that reported them; null when it has model calls and none did (Copilot CLI: input tokens per session only) */
  tokensIn: z.number().nullable(),
  tokensOut: z.number().nullable(),
  errors: z.number(),
  /** Σ copilotUsageNanoAiu / 10⁹ of its model calls; null when none carries credit data (unknown is not 0) */
  credits: z.number().nullable(),
  /** model calls without credit data, counted apart */
  callsWithoutCredits: z.number(),
  /** every event under the request */
  events: z.number(),
  sessionId: z.string(),
});
export type RequestTotals = z.infer<typeof RequestTotals>;

export const RequestListResponse = z.object({
  sessionId: z.string(),
  version: z.string(),
  requests: z.array(RequestTotals),
});
export type RequestListResponse = z.infer<typeof RequestListResponse>;
