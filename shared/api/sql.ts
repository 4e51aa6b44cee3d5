import { z } from 'zod';

/** The SQL console (POST /api/sql): one read-only SELECT or WITH statement against the index. */
export const SQL_MAX_CHARS = 100_000;

export const SqlRequest = z.object({
  sql: z.string().min(1, 'the statement is empty').max(SQL_MAX_CHARS, `a statement is at most ${SQL_MAX_CHARS} characters`),
});
export type SqlRequest = z.infer<typeof SqlRequest>;

/** A cell: SQLite's NULL, a number, or text (integers beyond 2^53 and blob previews come as text). */
export const SqlValue = z.union([z.null(), z.number(), z.string()]);
export type SqlValue = z.infer<typeof SqlValue>;

export const SqlResult = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(SqlValue)),
  /** more rows existed than were returned (at most 1000 rows, and a bound on the total text) */
  truncated: z.boolean(),
  truncatedBy: z.enum(['rows', 'size']).nullable(),
  /** cells whose text was cut to the per-cell bound */
  cellsCut: z.number(),
  elapsedMs: z.number(),
});
export type SqlResult = z.infer<typeof SqlResult>;

export const SqlColumnInfo = z.object({
  name: z.string(),
  type: z.string(),
  pk: z.boolean(),
  notNull: z.boolean(),
});
export type SqlColumnInfo = z.infer<typeof SqlColumnInfo>;

export const SqlTableInfo = z.object({
  name: z.string(),
  type: z.enum(['table', 'view', 'virtual']),
  /** one of Chronicle's tables (FORMAT §5.2), so Chronicle's queries run unchanged */
  chronicle: z.boolean(),
  columns: z.array(SqlColumnInfo),
});
export type SqlTableInfo = z.infer<typeof SqlTableInfo>;

export const SqlExample = z.object({
  title: z.string(),
  description: z.string(),
  sql: z.string(),
});
export type SqlExample = z.infer<typeof SqlExample>;

export const SqlSchemaResponse = z.object({
  tables: z.array(SqlTableInfo),
  examples: z.array(SqlExample),
  limits: z.object({ maxRows: z.number(), timeoutMs: z.number(), maxChars: z.number() }),
});
export type SqlSchemaResponse = z.infer<typeof SqlSchemaResponse>;
