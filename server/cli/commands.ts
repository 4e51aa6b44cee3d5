import type { CommandSpec } from './command';
import { runErrors } from './errors';
import { runImport } from './import';
import { runIndex } from './index-command';
import { runSearch } from './search';
import { runServe } from './serve-command';
import { runSlow } from './slow';
import { runSql } from './sql';
import { runStats } from './stats';
import { runTrace } from './trace';
import { runUsage } from './usage';

// `mcp` and `export` load the MCP SDK and the OpenTelemetry packages (~0.15 s of node's start-up, every command's
// and the server's) only when they run: imported here, every `chronoscope` invocation paid for them.
const runMcp: CommandSpec['run'] = async (opts) => (await import('./mcp')).runMcp(opts);
const runExport: CommandSpec['run'] = async (opts) => (await import('./export')).runExport(opts);

export const COMMANDS: Record<string, CommandSpec> = {
  serve: { run: runServe, usage: 'serve [--logs DIR]... [--copilot-home DIR] [--port 7311] [--host H --token T] [--db FILE] [--open] [--demo]', summary: 'index, watch and serve the dashboard (default)' },
  index: { run: runIndex, usage: 'index [--logs DIR]... [--copilot-home DIR] [--db FILE] [--demo] [--json]', summary: 'index everything once, print a summary line and exit' },
  search: { run: runSearch, usage: 'search QUERY [--window 7d] [--repo R] [--depth all] [--demo] [--json]', summary: 'search every session, grouped by repository' },
  slow: { run: runSlow, usage: 'slow [--min 5000] [--type llm_request] [--demo] [--json]', summary: 'the slowest calls across all sessions' },
  errors: { run: runErrors, usage: 'errors [--type tool] [--window 7d] [--demo] [--json]', summary: 'failures grouped by cause' },
  stats: { run: runStats, usage: 'stats [--by model|tool] [--demo] [--json]', summary: 'latency percentiles per model or tool' },
  usage: { run: runUsage, usage: 'usage [--window 7d] [--repo R] [--by model|repository|day] [--demo] [--json]', summary: 'requests, model calls, tokens and AI credits' },
  trace: { run: runTrace, usage: 'trace SESSION_ID [--demo] [--json]', summary: 'ancestors and descendants of a session' },
  mcp: { run: runMcp, usage: 'mcp [--db FILE] [--logs DIR]... [--copilot-home DIR] [--no-index] [--port 7311]', summary: 'a read-only MCP server over stdio, for agents (VS Code, Copilot CLI)' },
  export: { run: runExport, usage: 'export SESSION_ID [--format otlp|md] [-o FILE] [--split] [--max-chars 30000]', summary: 'a session as OTLP JSON (VS Code, collectors) or Markdown' },
  import: { run: runImport, usage: 'import FILE... [--db FILE]', summary: 'OTLP JSON (VS Code\'s export, otel.outfile, ours) into the index, marked imported' },
  sql: { run: runSql, usage: 'sql "SELECT …" [--demo] [--json]', summary: 'one read-only SELECT against the index' },
};
