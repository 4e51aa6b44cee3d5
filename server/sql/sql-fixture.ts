import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';

export const SQL_FIXTURE_SESSION = 'sql-s1';

/**
 * One session that fills every table the console's examples read: a user message and a response (turns,
 * search_index), a read_file call (session_files), a GitHub MCP call (session_refs), a model call and a failed
 * tool call (events). It ran an hour ago, so the standup query finds it.
 */
export function sqlFixtureFiles(now = Date.now()): Record<string, string> {
  const sid = SQL_FIXTURE_SESSION;
  const t = now - 3600_000;
  const ev = (o: object) => line({ sid, status: 'ok', dur: 0, ...o });
  const response = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'The retry bug is a timeout that is never reset.' }] }]);
  return {
    [`${sid}/main.jsonl`]:
      ev({ v: 1, ts: t, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, attrs: {} }) +
      ev({ ts: t + 10, type: 'user_message', name: 'user_message', spanId: 'sqlu000000000001', attrs: { content: 'fix the retry bug in the uploader' } }) +
      ev({ ts: t + 20, dur: 1500, type: 'llm_request', name: 'chat:gpt-4.1', spanId: 'sqll000000000001', parentSpanId: 'sqlu000000000001', attrs: { model: 'gpt-4.1', inputTokens: 900, outputTokens: 40, ttft: 400 } }) +
      ev({ ts: t + 1600, type: 'agent_response', name: 'agent_response', spanId: 'sqla000000000001', parentSpanId: 'sqlu000000000001', attrs: { response } }) +
      ev({ ts: t + 1700, dur: 30, type: 'tool_call', name: 'read_file', spanId: 'sqlt000000000001', parentSpanId: 'sqlu000000000001', attrs: { args: JSON.stringify({ filePath: '/w/src/uploader.ts' }), result: 'export const retry = 3;' } }) +
      ev({ ts: t + 1800, dur: 80, type: 'tool_call', name: 'mcp_github_get_pull_request', spanId: 'sqlt000000000002', parentSpanId: 'sqlu000000000001', attrs: { args: JSON.stringify({ owner: 'o', repo: 'r', pullNumber: 12 }), result: '{}' } }) +
      ev({ ts: t + 1900, dur: 20, type: 'tool_call', name: 'run_in_terminal', status: 'error', spanId: 'sqlt000000000003', parentSpanId: 'sqlu000000000001', attrs: { args: JSON.stringify({ command: 'npm test' }), error: 'exit code 1: 3 tests failed' } }),
  };
}

export async function sqlFixtureDb(now = Date.now()): Promise<FixtureDb> {
  return fixtureDb(sqlFixtureFiles(now));
}
