import type Database from 'better-sqlite3';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { inOneSnapshot } from '../db/one-snapshot';
import { SqlRunner } from '../sql/sql-runner';
import { VERSION } from '../version';
import { dashboardLinks } from './links';
import { boundedResult, ToolInputError } from './tool-output';
import type { ToolContext, ToolDef } from './tool-context';
import { customizationsTool } from './tools/customizations';
import { errorGroupsTool } from './tools/error-groups';
import { getEventsTool } from './tools/get-events';
import { getSessionTool } from './tools/get-session';
import { latencyStatsTool } from './tools/latency-stats';
import { searchSessionsTool } from './tools/search-sessions';
import { slowestCallsTool } from './tools/slowest-calls';
import { sqlTool } from './tools/sql';
import { traceLineageTool } from './tools/trace-lineage';

export const TOOLS: ToolDef[] = [
  searchSessionsTool,
  getSessionTool,
  getEventsTool,
  slowestCallsTool,
  errorGroupsTool,
  latencyStatsTool,
  traceLineageTool,
  customizationsTool,
  sqlTool,
] as unknown as ToolDef[];

export interface ChronoscopeMcpOptions {
  db: Database.Database;
  dbPath: string;
  /** the dashboard's port, for the links in every answer */
  port?: number;
  now?: () => number;
}

export interface ChronoscopeMcp {
  server: McpServer;
  close(): Promise<void>;
}

/**
 * The read-only MCP server: the dashboard's answers as tools for an agent. Every tool reads the index through
 * the given read-only connection (SQL through the console's own process, with its guards); every answer is
 * bounded and says when it was cut. A wrong argument is a tool error whose message says what to pass instead.
 */
export function createChronoscopeMcp(opts: ChronoscopeMcpOptions): ChronoscopeMcp {
  const sql = new SqlRunner({ dbPath: opts.dbPath, limits: { maxRows: 100, maxCellChars: 2_000, maxResultChars: 200_000 } });
  const ctx: ToolContext = { db: opts.db, links: dashboardLinks(opts.port), sql, now: opts.now ?? Date.now };
  const server = new McpServer({ name: 'chronoscope', version: VERSION }, { instructions: 'Chronoscope indexes GitHub Copilot Chat debug logs: every past session, request, model and tool call. Start with search_sessions (or slowest_calls / error_groups), then get_session and get_events to read the evidence; cite the links.' });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: true, openWorldHint: false } },
      async (args: Record<string, unknown>) => {
        try {
          // one snapshot of the index for the whole answer (one-snapshot.ts); the sql tool reads in the console's process
          const answer = await inOneSnapshot(ctx.db, () => tool.run(ctx, args as never));
          return boundedResult(answer.payload, { listKey: answer.listKey });
        } catch (err) {
          if (err instanceof ToolInputError) return { content: [{ type: 'text' as const, text: err.message }], isError: true };
          throw err;
        }
      },
    );
  }
  return {
    server,
    async close() {
      await server.close();
      await sql.close();
    },
  };
}
