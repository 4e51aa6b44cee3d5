// The files a Copilot CLI tool touched feed the session's file list (session_files, file: search) like VS Code's
// tools do. The CLI writes a tool's arguments on tool.execution_start and its outcome on tool.execution_complete:
// the completion is the span, so the derivation must find the arguments on the start line, even when the start was
// read before a restart.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, type FixtureDb } from '../../test-support/fixture-db';
import { cliLines, uuid } from './cli-fixture';

const S = uuid(41, 'd');
const tool = (at: number, id: string, toolName: string, args: Record<string, unknown>, result = 'ok') => [
  { at, type: 'tool.execution_start', data: { toolCallId: id, toolName, arguments: args, turnId: '0' } },
  { at: at + 40, type: 'tool.execution_complete', data: { toolCallId: id, success: true, result: { content: result }, turnId: '0' } },
];
const EVENTS = [
  { at: 0, type: 'session.start', data: { sessionId: S, copilotVersion: '1.0.3', startTime: '2026-11-30T09:00:00.000Z', context: { cwd: '/home/dev/app' } } },
  { at: 100, type: 'user.message', data: { content: 'Rename the config loader', turnId: '0' } },
  { at: 200, type: 'assistant.turn_start', data: { turnId: '0' } },
  { at: 300, type: 'assistant.message', data: { messageId: 'm1', content: '', model: 'gpt-5', outputTokens: 30, turnId: '0' } },
  ...tool(400, 'call_view', 'view', { path: '/home/dev/app/src/config.ts' }),
  ...tool(500, 'call_edit', 'edit', { path: '/home/dev/app/src/config.ts', old_str: 'a', new_str: 'b' }),
  ...tool(600, 'call_create', 'create', { path: '/home/dev/app/src/loader.ts', file_text: 'export {}' }),
  ...tool(700, 'call_sre', 'str_replace_editor', { command: 'str_replace', path: '/home/dev/app/README.md', old_str: 'x', new_str: 'y' }),
  ...tool(800, 'call_bash', 'bash', { command: 'npm test' }),
  ...tool(900, 'call_grep', 'grep', { pattern: 'loadConfig', path: '/home/dev/app' }),
  ...tool(1000, 'call_pr', 'github-mcp-server-get_pull_request', { owner: 'octo', repo: 'app', pullNumber: 42 }),
  { at: 1100, type: 'assistant.turn_end', data: { turnId: '0' } },
];
const TEXT = cliLines(S, EVENTS);

let fx: FixtureDb | undefined;
afterEach(() => fx?.cleanup());

const touched = (f: FixtureDb) =>
  f.db
    .prepare(
      `SELECT sf.file_path path, sf.tool_name tool, sf.turn_index turn, e.type type, e.span_id span
       FROM session_files sf JOIN events e ON e.id = sf.event_id WHERE sf.session_id = ? ORDER BY sf.id`,
    )
    .all(S);
const refs = (f: FixtureDb) => f.db.prepare('SELECT ref_type type, ref_value value FROM session_refs WHERE session_id = ? ORDER BY id').all(S);

const EXPECTED = [
  { path: '/home/dev/app/src/config.ts', tool: 'view', turn: 0, type: 'tool_call', span: 'call_view' },
  { path: '/home/dev/app/src/loader.ts', tool: 'create', turn: 0, type: 'tool_call', span: 'call_create' },
  { path: '/home/dev/app/README.md', tool: 'str_replace_editor', turn: 0, type: 'tool_call', span: 'call_sre' },
];

describe('files and refs of CLI tools', () => {
  it('view, edit, create and str_replace_editor name their file on the start line; the completion (the span) records it', async () => {
    fx = await fixtureDb({}, { cli: { [`${S}/events.jsonl`]: TEXT } });
    // config.ts once: the first tool to touch a file names it (Chronicle's session_files is unique per path)
    expect(touched(fx)).toEqual(EXPECTED);
    expect(refs(fx)).toEqual([{ type: 'pr', value: '42' }]);
    const hits = fx.db.prepare("SELECT count(*) n FROM file_text WHERE file_text MATCH '\"loader.ts\"'").get() as { n: number };
    expect(hits.n).toBe(1);
  });

  it('finds the arguments of a start read before a restart', async () => {
    const lines = TEXT.split('\n');
    // cut after each start line: the completion comes in the next read, by a new indexer
    const cuts = lines.map((l, i) => (l.includes('"tool.execution_start"') ? i + 1 : -1)).filter((i) => i > 0);
    expect(cuts.length).toBe(7);
    for (const cut of cuts) {
      fx?.cleanup();
      fx = await fixtureDb({}, { cli: { [`${S}/events.jsonl`]: lines.slice(0, cut).join('\n') + '\n' } });
      fs.appendFileSync(path.join(fx.sessionStateDir, S, 'events.jsonl'), lines.slice(cut).join('\n'));
      await fx.reindex();
      expect({ cut, files: touched(fx), refs: refs(fx) }).toEqual({ cut, files: EXPECTED, refs: [{ type: 'pr', value: '42' }] });
    }
  });
});
