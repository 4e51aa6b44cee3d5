// The latest occurrence of an error group shows the failed call's result (what the tool answered: often the real
// cause), read from its archived line in either writer's format.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorGroupsQuery } from '../../shared/api/triage';
import { openReadDb } from '../db/open';
import { createChronoscopeMcp } from '../mcp/mcp-server';
import { T0, cliLines } from '../ingest/cli/cli-fixture';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { errorGroups } from './error-groups';

const CLI = 'dddddddd-0000-4000-8000-000000000004';
const VS = '22222222-2222-4222-8222-222222222222';
const CLI_OUTPUT = 'FAIL src/retry.test.ts: expected 3 retries, got 0';
const VS_OUTPUT = 'ENOENT: no such file or directory, open /a/b.ts';

let fx: FixtureDb;
beforeAll(async () => {
  const cli = cliLines(CLI, [
    { at: 0, type: 'session.start', data: { sessionId: CLI, copilotVersion: '1.0.2', context: { cwd: '/home/dev/api' } } },
    { at: 100, type: 'user.message', data: { content: 'Run the tests', turnId: '0' } },
    { at: 200, type: 'tool.execution_start', data: { toolCallId: 'call_t', toolName: 'bash', arguments: { command: 'npm test' }, turnId: '0' } },
    // Copilot CLI: the output in result.content, the failure in error
    { at: 900, type: 'tool.execution_complete', data: { toolCallId: 'call_t', success: false, error: { message: 'Command failed with exit code 1' }, result: { content: CLI_OUTPUT, detailedContent: `${CLI_OUTPUT}\n(full log)` }, turnId: '0' } },
    { at: 1000, type: 'tool.execution_start', data: { toolCallId: 'call_v', toolName: 'view', arguments: { path: '/x' }, turnId: '0' } },
    // only a detailedContent
    { at: 1100, type: 'tool.execution_complete', data: { toolCallId: 'call_v', success: false, error: { message: 'Path does not exist' }, result: { content: '', detailedContent: 'no such path: /x' }, turnId: '0' } },
  ]);
  const vs = line({ ts: T0, dur: 30, sid: VS, type: 'tool_call', name: 'read_file', spanId: '0000000000000001', status: 'error', attrs: { args: '{}', error: 'File not found', result: VS_OUTPUT } });
  fx = await fixtureDb({ [`${VS}/main.jsonl`]: vs }, { cli: { [`${CLI}/events.jsonl`]: cli } });
});
afterAll(() => fx.cleanup());

it("the latest failure's result: a debug log's attrs.result, a CLI completion's result.content, else its detailedContent", () => {
  const r = errorGroups(fx.db, ErrorGroupsQuery.parse({ window: 'all' }), T0 + 60_000);
  const bySubject = Object.fromEntries(r.groups.map((g) => [g.subject, [g.latest.message, g.latest.result]]));
  expect(bySubject).toEqual({
    bash: ['Command failed with exit code 1', CLI_OUTPUT],
    view: ['Path does not exist', 'no such path: /x'],
    read_file: ['File not found', VS_OUTPUT],
  });
});

it('the MCP tool error_groups gives the same results (longer cut, the same reading)', async () => {
  const mcp = createChronoscopeMcp({ db: openReadDb(fx.dbPath), dbPath: fx.dbPath, port: 7311 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  try {
    const r = (await client.callTool({ name: 'error_groups', arguments: { window: 'all' } })) as CallToolResult;
    const body = JSON.parse((r.content[0] as { text: string }).text) as { groups: { subject: string; latest: { result: string | null } }[] };
    expect(Object.fromEntries(body.groups.map((g) => [g.subject, g.latest.result]))).toEqual({ bash: CLI_OUTPUT, view: 'no such path: /x', read_file: VS_OUTPUT });
  } finally {
    await client.close();
    await mcp.close();
  }
});
