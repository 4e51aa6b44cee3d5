import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Options } from '../config';
import { createChronoscopeMcp } from '../mcp/mcp-server';
import { resolveDbPath } from './locations';
import { openIndexForQuery } from './open-index';
import { pageTriageModelsToDisk } from '../triage/model';

/**
 * `chronoscope mcp [--db FILE] [--logs DIR]... [--no-index] [--port 7311]`: the MCP server over stdio. stdout
 * belongs to the protocol, so everything else (index recovery notes) goes to stderr. It answers until the
 * client closes stdin.
 */
export async function runMcp(opts: Options): Promise<number> {
  pageTriageModelsToDisk(); // it runs beside an agent for as long as the server does
  const db = await openIndexForQuery(opts);
  const mcp = createChronoscopeMcp({ db, dbPath: resolveDbPath(opts), port: opts.port });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await mcp.server.connect(transport);
  process.stderr.write(`chronoscope mcp: serving ${resolveDbPath(opts)} over stdio\n`);
  await closed;
  await mcp.close();
  db.close();
  return 0;
}
