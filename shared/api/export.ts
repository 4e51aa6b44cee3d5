import { z } from 'zod';

/** GET /api/sessions/:id/export */
export const ExportQuery = z.object({
  format: z.enum(['otlp', 'md']).default('otlp'),
  /** Markdown: cut at this many characters (default 30,000) */
  maxChars: z.coerce.number().int().min(1000).max(2_000_000).optional(),
  /** Markdown: one span and what is under it */
  event: z.coerce.number().int().positive().optional(),
  /** Markdown: as a file download rather than text */
  download: z.enum(['0', '1']).default('0'),
});
export type ExportQuery = z.input<typeof ExportQuery>;

/** POST /api/import: what an OTLP file brought in. */
export const ImportResponse = z.object({
  imported: z.array(z.object({ sessionId: z.string(), events: z.number() })),
  /** sessions the index already has from their own logs, left out */
  skipped: z.array(z.string()),
  spans: z.number(),
});
export type ImportResponse = z.infer<typeof ImportResponse>;
