import type Database from 'better-sqlite3';
import { rawLines } from '../../db/raw-lines';
import { statement } from '../../db/statements';

/**
 * A Copilot CLI tool call is two lines (INTEROP §3): `tool.execution_start` with the `arguments`, then
 * `tool.execution_complete` with the result. The tree shows the completion; readers that show the call whole
 * (the event detail, the exports) take its arguments from the start line.
 */
export function startArgumentsOf(line: Record<string, unknown> | null): unknown {
  const d = line?.data;
  return d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>).arguments : undefined;
}

/** A completion's arguments: its tool call id's latest start line before it, in the same session (undefined: none). */
export function argumentsBefore(db: Database.Database, sessionNum: number, toolCallId: string, completionId: number): unknown {
  const sql = "SELECT id FROM events WHERE session_num = ? AND span_id = ? AND type = 'tool.execution_start' AND id < ? ORDER BY id DESC LIMIT 1";
  const start = statement(db, sql).get(sessionNum, toolCallId, completionId) as { id: number } | undefined;
  return start ? startArgumentsOf(rawLines(db).json(start.id)) : undefined;
}
