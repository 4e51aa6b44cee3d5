import { z } from 'zod';

/** GET /api/sessions/:id/spans/timeline?event=N: the request an event belongs to, where its time went, its critical path. */
export const RequestTimelineQuery = z.object({
  event: z.coerce.number().int().positive(),
});
export type RequestTimelineQuery = z.input<typeof RequestTimelineQuery>;

/**
 * One model call's time. `ttft` is the writer's time to first token; `generation` the rest of the call
 * (dur − ttft). Both are null when the call reports no ttft: unknown, never 0.
 */
export const CallBreakdown = z.object({
  id: z.number(),
  start: z.number(),
  dur: z.number(),
  ttft: z.number().nullable(),
  generation: z.number().nullable(),
});
export type CallBreakdown = z.infer<typeof CallBreakdown>;

/**
 * Where a request's time went: every ms of [start, end] is counted once, in the first of these it falls in:
 * `ttft` (a model call of the request's own loop waiting for its first token), `generation` (the rest of such a
 * call), `model` (a call that reports no ttft), `tool` (any tool call of the request, parallel ones counted once,
 * subagents and their model calls included), else `idle`. So ttft + generation + model + tool + idle = end − start.
 * `ttft` and `generation` are null when no call of the request reports a ttft.
 */
export const RequestBreakdown = z.object({
  start: z.number(),
  end: z.number(),
  ttft: z.number().nullable(),
  generation: z.number().nullable(),
  model: z.number(),
  tool: z.number(),
  idle: z.number(),
  /** the request's own model calls in start order (at most MAX_CALLS; `callsTotal` counts them all) */
  calls: z.array(CallBreakdown),
  callsTotal: z.number(),
});
export type RequestBreakdown = z.infer<typeof RequestBreakdown>;

/** A span on the critical path and the part of it that decided the end: [from, to]. */
export const CriticalStep = z.object({ id: z.number(), from: z.number(), to: z.number() });
export type CriticalStep = z.infer<typeof CriticalStep>;

export const RequestTimeline = z.object({
  eventId: z.number(),
  /** the event's own time and everything under it (null without a time): what "zoom to this span" shows */
  extent: z.object({ start: z.number(), end: z.number() }).nullable(),
  /** null when the event is under no request (session_start, a title child's call) or has no time */
  request: z
    .object({
      /** the user_message event */
      id: z.number(),
      breakdown: RequestBreakdown,
      /** in time order, the request itself first */
      criticalPath: z.array(CriticalStep),
    })
    .nullable(),
});
export type RequestTimeline = z.infer<typeof RequestTimeline>;

/** GET /api/sessions/:id/spans/breakdowns: the totals of every request of the session (the request rows' bars). */
export const RequestBreakdownRow = RequestBreakdown.omit({ calls: true, callsTotal: true }).extend({ id: z.number() });
export type RequestBreakdownRow = z.infer<typeof RequestBreakdownRow>;

export const RequestBreakdownList = z.object({
  /** at most MAX_REQUESTS (the overview's cap), in tree order */
  requests: z.array(RequestBreakdownRow),
});
export type RequestBreakdownList = z.infer<typeof RequestBreakdownList>;
