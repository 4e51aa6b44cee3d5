import { z } from 'zod';
import { TIME_WINDOWS, WINDOW_MS } from '../time-window';

/** The one error body every failing route returns (DESIGN house style 2). */
export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Time windows offered everywhere a list can be narrowed by recency. */
export const TimeWindow = z.enum(TIME_WINDOWS);
export type TimeWindow = z.infer<typeof TimeWindow>;

export { WINDOW_MS };

/** Hard cap on any list endpoint's page size (hardening: resource bounds). */
export const MAX_PAGE_SIZE = 500;

export const PageLimit = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE);

/** FTS5 reads a query string only up to a NUL character, so text that becomes one must not hold any. */
export const NUL_REFUSAL = 'a NUL character (\\u0000) cannot be searched for: remove it';

/** Free text that becomes an FTS5 query (the text filters of the session view and of triage). */
export const SearchableText = (maxChars: number) =>
  z
    .string()
    .max(maxChars)
    .refine((s) => !s.includes('\u0000'), NUL_REFUSAL);

/** Which product wrote a session: VS Code's debug logs, or the Copilot CLI's events.jsonl (INTEROP §3). */
export const SessionSource = z.enum(['vscode', 'cli']);
export type SessionSource = z.infer<typeof SessionSource>;

/** A session's source; absent means VS Code (servers before CLI sessions were indexed did not send it). */
export const sourceOf = (x: { source?: SessionSource | null }): SessionSource => x.source ?? 'vscode';
