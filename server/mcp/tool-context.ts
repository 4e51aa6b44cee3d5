import type Database from 'better-sqlite3';
import type { z } from 'zod';
import type { SqlRunner } from '../sql/sql-runner';
import type { DashboardLinks } from './links';

/** What every tool reads: the index (read-only), links into the dashboard, the SQL console's process, a clock. */
export interface ToolContext {
  db: Database.Database;
  links: DashboardLinks;
  sql: SqlRunner;
  now(): number;
}

/** A session written to this recently is probably the agent's own, still running (agentsview's rule). */
export const ACTIVE_MS = 2 * 60_000;

export interface ToolAnswer {
  payload: Record<string, unknown>;
  /** the list that is shortened first when the answer is too long */
  listKey?: string;
}

export interface ToolDef<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  /** written for a model: what it answers, when to use it, what comes back */
  description: string;
  input: S;
  run(ctx: ToolContext, args: z.infer<z.ZodObject<S>>): ToolAnswer | Promise<ToolAnswer>;
}

/** Keeps each tool's args typed from its own shape while the server holds them in one list. */
export function defineTool<S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> {
  return def;
}
