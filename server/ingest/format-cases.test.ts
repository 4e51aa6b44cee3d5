// FORMAT.md §7: one small fixture per edge case about reading logs, each asserting exactly what the index holds.
// (Rewrites, partial lines, deletions and garbage are in faults.test.ts; the session DB cases 34–35 belong to the
// SQL console.)
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const T = 1775000000000;
const start = (sid: string, attrs: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  line({ v: 1, ts: T, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { copilotVersion: '0.44.0', vscodeVersion: '1.116.0', ...attrs }, ...extra });
const user = (sid: string, span: string, content: string, ts = T + 10) =>
  line({ ts, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: span, status: 'ok', attrs: { content } });
const llm = (sid: string, span: string, parent: string, attrs: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  line({ ts: T + 20, dur: 1500, sid, type: 'llm_request', name: 'chat:gpt-4.1', spanId: span, parentSpanId: parent, status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 100, outputTokens: 10, ...attrs }, ...extra });
const reply = (sid: string, chat: string, parent: string, text: string) =>
  line({ ts: T + 30, dur: 0, sid, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${chat}`, parentSpanId: parent, status: 'ok', attrs: { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: text }] }]) } });
const tool = (sid: string, span: string, parent: string | undefined, name: string, args: unknown, extra: Record<string, unknown> = {}) =>
  line({ ts: T + 40, dur: 30, sid, type: 'tool_call', name, spanId: span, ...(parent ? { parentSpanId: parent } : {}), status: 'ok', attrs: { args: typeof args === 'string' ? args : JSON.stringify(args), result: 'ok' }, ...extra });
const childRef = (sid: string, child: string, label: string, file: string, parent?: string) =>
  line({ ts: T + 35, dur: 0, sid, type: 'child_session_ref', name: label, spanId: `child-ref-${child}`, ...(parent ? { parentSpanId: parent } : {}), status: 'ok', attrs: { childSessionId: child, childLogFile: file, label } });

const q = <T>(sql: string, ...p: unknown[]) => fx!.db.prepare(sql).all(...p) as T[];
const one = <T>(sql: string, ...p: unknown[]) => fx!.db.prepare(sql).get(...p) as T;

describe('FORMAT §7 edge cases', () => {
  it('1. a legacy flat <id>.jsonl beside folder sessions is its own session', async () => {
    fx = await fixtureDb({ 'legacy1.jsonl': user('legacy1', 'u1', 'old style ' + 'x'.repeat(500) + '[truncated]'), 's1/main.jsonl': start('s1') + user('s1', 'u2', 'hi') });
    expect(q('SELECT id, event_count FROM sessions ORDER BY id')).toEqual([
      { id: 'legacy1', event_count: 1 },
      { id: 's1', event_count: 2 },
    ]);
    expect(one<{ kind: string }>("SELECT kind FROM files WHERE session_id = 'legacy1'").kind).toBe('legacy');
  });

  it('2. an LMAR folder: no session_start, a child_session_ref without parentSpanId still links the child', async () => {
    fx = await fixtureDb({
      'm1/main.jsonl': user('m1', 'u1', 'lmar') + childRef('m1', 'c1', 'title', 'title-c1.jsonl'),
      'm1/title-c1.jsonl': llm('c1', 'l1', 'x') + reply('c1', 'l1', 'x', 'LMAR title'),
    });
    expect(one('SELECT parent_id, label, title FROM sessions WHERE id = ?', 'c1')).toEqual({ parent_id: 'm1', label: 'title', title: 'LMAR title' });
    expect(one<{ title: string }>("SELECT title FROM sessions WHERE id = 'm1'").title).toBe('LMAR title');
  });

  it('3. system_prompt_0/1 and tools_0 are stored; each llm_request keeps the file it names', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', 'x') + llm('s1', 'l1', 'u1', { systemPromptFile: 'system_prompt_0.json', toolsFile: 'tools_0.json' }) + llm('s1', 'l2', 'u1', { systemPromptFile: 'system_prompt_1.json' }) });
    const dir = path.join(fx.logsDir(), 's1');
    fs.writeFileSync(path.join(dir, 'system_prompt_0.json'), JSON.stringify({ content: 'You are A' }, null, 2));
    fs.writeFileSync(path.join(dir, 'system_prompt_1.json'), JSON.stringify({ content: 'You are B' }, null, 2));
    fs.writeFileSync(path.join(dir, 'tools_0.json'), JSON.stringify({ content: JSON.stringify([{ type: 'function', name: 'read_file', description: 'Read' }]) }));
    await fx.reindex();
    expect(q('SELECT name, kind, n, content FROM companions ORDER BY name')).toEqual([
      { name: 'system_prompt_0.json', kind: 'system_prompt', n: 0, content: 'You are A' },
      { name: 'system_prompt_1.json', kind: 'system_prompt', n: 1, content: 'You are B' },
      { name: 'tools_0.json', kind: 'tools', n: 0, content: JSON.stringify([{ type: 'function', name: 'read_file', description: 'Read' }], null, 2) },
    ]);
  });

  it('4. a tools_N.json whose inner string was OTel-truncated is kept as text', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', 'x') });
    const inner = JSON.stringify([{ type: 'function', name: 'a' }]).slice(0, 20) + '...[truncated, original 999 chars]';
    fs.writeFileSync(path.join(fx.logsDir(), 's1', 'tools_0.json'), JSON.stringify({ content: inner }));
    await fx.reindex();
    expect(one<{ content: string }>('SELECT content FROM companions').content).toBe(inner);
  });

  it('5–6. models.json with no main.jsonl, and an empty folder: no crash, no event', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', 'x') });
    fs.mkdirSync(path.join(fx.logsDir(), 'only-models'));
    fs.writeFileSync(path.join(fx.logsDir(), 'only-models', 'models.json'), JSON.stringify([{ id: 'gpt-4.1', vendor: 'openai' }], null, 2));
    fs.mkdirSync(path.join(fx.logsDir(), 'empty'));
    await fx.reindex();
    expect(one('SELECT count(*) n FROM events')).toEqual({ n: 1 });
    expect(one<{ session_id: string; kind: string }>('SELECT session_id, kind FROM companions')).toEqual({ session_id: 'only-models', kind: 'models' });
  });

  it('7–9. child files only, with labels that were sanitised, and every child label in one folder', async () => {
    fx = await fixtureDb({
      'p1/main.jsonl': start('p1') + childRef('p1', 'c-agent', 'runSubagent-my/agent', 'runSubagent-my_agent-c-agent.jsonl'),
      'p1/runSubagent-my_agent-c-agent.jsonl': start('c-agent', { parentSessionId: 'p1', label: 'runSubagent-my/agent' }) + llm('c-agent', 'l1', 's'),
      'p1/searchSubagent-0b6c9f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.jsonl': llm('0b6c9f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', 'l2', 'x'),
      'p1/title-t1.jsonl': llm('t1', 'l3', 'x'),
      'p1/categorization-k1.jsonl': llm('k1', 'l4', 'x'),
      'p1/summarize-z1.jsonl': llm('z1', 'l5', 'x'),
      'p1/runSubagent-default-d1.jsonl': llm('d1', 'l6', 'x'),
    });
    expect(q("SELECT id, label FROM sessions WHERE parent_id = 'p1' ORDER BY id")).toEqual([
      { id: '0b6c9f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', label: 'searchSubagent' },
      { id: 'c-agent', label: 'runSubagent-my/agent' },
      { id: 'd1', label: 'runSubagent-default' },
      { id: 'k1', label: 'categorization' },
      { id: 't1', label: 'title' },
      { id: 'z1', label: 'summarize' },
    ]);
  });

  it('10. a ref pointing at a runSubagent tool_call written later, with an earlier ts', async () => {
    fx = await fixtureDb({
      'p1/main.jsonl': user('p1', 'R', 'go') + childRef('p1', 'C', 'runSubagent-Explore', 'runSubagent-Explore-C.jsonl', 'Y') + tool('p1', 'Y', 'R', 'runSubagent', { agentName: 'Explore' }, { ts: T + 5, dur: 30000 }),
      'p1/runSubagent-Explore-C.jsonl': start('C', { parentSessionId: 'p1', label: 'runSubagent-Explore' }) + line({ ts: T + 6, dur: 29000, sid: 'C', type: 'subagent', name: 'Explore', spanId: 'S', parentSpanId: 'Y', status: 'ok', attrs: { agentName: 'Explore' } }),
    });
    expect(one('SELECT parent_id, parent_span_id, label FROM sessions WHERE id = ?', 'C')).toEqual({ parent_id: 'p1', parent_span_id: 'Y', label: 'runSubagent-Explore' });
  });

  it('13. main.jsonl.tmp beside main.jsonl is ignored', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', 'x'), 's1/main.jsonl.tmp': user('s1', 'u2', 'half-written copy') });
    expect(one('SELECT count(*) n FROM files')).toEqual({ n: 1 });
    expect(one('SELECT count(*) n FROM events')).toEqual({ n: 1 });
  });

  it('14–15. two session_start lines and resumed runs with rIdx and ts going backwards', async () => {
    fx = await fixtureDb({
      's1/main.jsonl':
        start('s1') + user('s1', 'u1', 'first run', T + 100) + start('s1', {}, { ts: T + 50 }) + line({ ts: T + 60, dur: 0, sid: 's1', type: 'user_message', name: 'user_message', spanId: 'u2', status: 'ok', attrs: { content: 'resumed' }, rIdx: 1 }) + line({ ts: T + 70, dur: 5, sid: 's1', type: 'tool_call', name: 'list_dir', spanId: 't2', parentSpanId: 'u2', status: 'ok', attrs: { args: '{"path":"/w"}' }, rIdx: 2 }),
    });
    expect(q('SELECT type, r_idx FROM events ORDER BY id')).toEqual([
      { type: 'session_start', r_idx: 0 },
      { type: 'user_message', r_idx: 0 },
      { type: 'session_start', r_idx: 0 },
      { type: 'user_message', r_idx: 1 },
      { type: 'tool_call', r_idx: 2 },
    ]);
    expect(one('SELECT first_ts, last_ts, event_count FROM sessions')).toEqual({ first_ts: T, last_ts: T + 100, event_count: 5 });
  });

  it('16. replayed core discovery lines in two sessions: shown in both, counted once across sessions', async () => {
    const disc = (sid: string) => line({ ts: T - 5000, dur: 0, sid, type: 'discovery', name: 'Load Instructions', spanId: 'core-1', status: 'ok', attrs: { details: 'loaded: [a.md]', category: 'discovery', source: 'core' } });
    fx = await fixtureDb({ 's1/main.jsonl': start('s1') + disc('s1'), 's2/main.jsonl': start('s2') + disc('s2') });
    expect(q("SELECT dup FROM events WHERE type = 'discovery' ORDER BY id")).toEqual([{ dup: 0 }, { dup: 1 }]);
    expect(q("SELECT id, json_extract(counts, '$.discovery') d FROM sessions ORDER BY id")).toEqual([
      { id: 's1', d: 1 },
      { id: 's2', d: 1 },
    ]);
  });

  it('17. a user_message broadcast with the same spanId into two sessions', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'B', 'broadcast'), 's2/main.jsonl': user('s2', 'B', 'broadcast') });
    expect(q("SELECT dup FROM events WHERE type = 'user_message' ORDER BY id")).toEqual([{ dup: 0 }, { dup: 1 }]);
  });

  it('18. tool args cut at 5,000 characters: no crash, and the file is still recorded (Chronicle records none)', async () => {
    const args = JSON.stringify({ filePath: '/w/big.ts', content: 'y'.repeat(6000) }).slice(0, 5000) + '[truncated]';
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', 'x') + tool('s1', 't1', 'u1', 'create_file', args) });
    expect(q('SELECT file_path, tool_name, turn_index FROM session_files')).toEqual([{ file_path: '/w/big.ts', tool_name: 'create_file', turn_index: 0 }]);
  });

  it('19–20. a response over 5,000 characters (invalid JSON, no OTel marker) and one with only tool calls', async () => {
    const cut = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'long answer ' + 'z'.repeat(6000) }] }]).slice(0, 5000) + '[truncated]';
    fx = await fixtureDb({
      's1/main.jsonl':
        user('s1', 'u1', 'question') +
        line({ ts: T + 30, dur: 0, sid: 's1', type: 'agent_response', name: 'agent_response', spanId: 'agent-msg-l1', parentSpanId: 'u1', status: 'ok', attrs: { response: cut } }) +
        line({ ts: T + 31, dur: 0, sid: 's1', type: 'agent_response', name: 'agent_response', spanId: 'agent-msg-l2', parentSpanId: 'u1', status: 'ok', attrs: { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c', name: 'read_file', arguments: '{}' }] }]) } }),
    });
    // NULL as in Chronicle (FORMAT §5.5): invalid JSON is not the answer. The line stays searchable (event_text).
    expect(q('SELECT user_message, assistant_response FROM turns')).toEqual([{ user_message: 'question', assistant_response: null }]);
  });

  it('21–23. a failed llm_request without tokens, chat:unknown, and post-LVS attributes preserved', async () => {
    fx = await fixtureDb({
      's1/main.jsonl':
        user('s1', 'u1', 'x') +
        line({ ts: T + 20, dur: 60000, sid: 's1', type: 'llm_request', name: 'chat:gpt-4.1', spanId: 'l1', parentSpanId: 'u1', status: 'error', attrs: { model: 'gpt-4.1', error: '429 Too Many Requests' } }) +
        line({ ts: T + 21, dur: 10, sid: 's1', type: 'llm_request', name: 'chat:unknown', spanId: 'l2', parentSpanId: 'u1', status: 'ok', attrs: { inputTokens: 1 } }) +
        llm('s1', 'l3', 'u1', { cachedTokens: 40, debugName: 'panel/editAgent', copilotUsageNanoAiu: 12, responseId: 'r-1' }),
    });
    expect(q("SELECT name, model, status, error, tokens_in, tokens_cached FROM events WHERE type = 'llm_request' ORDER BY id")).toEqual([
      { name: 'chat:gpt-4.1', model: 'gpt-4.1', status: 1, error: '429 Too Many Requests', tokens_in: null, tokens_cached: null },
      { name: 'chat:unknown', model: 'unknown', status: 0, error: null, tokens_in: 1, tokens_cached: null },
      { name: 'chat:gpt-4.1', model: 'gpt-4.1', status: 0, error: null, tokens_in: 100, tokens_cached: 40 },
    ]);
    expect(one('SELECT error_count, tokens_in, tokens_cached FROM sessions')).toEqual({ error_count: 1, tokens_in: 101, tokens_cached: 40 });
  });

  it('24. a multi-megabyte line (inputMessages near 64,000 characters plus a long userRequest)', async () => {
    const inputMessages = JSON.stringify([{ role: 'user', content: 'm'.repeat(63_900) }]).slice(0, 63_970) + '...[truncated, original 70000 chars]';
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', 'x') + llm('s1', 'l1', 'u1', { inputMessages, userRequest: 'r'.repeat(2_000_000) }) });
    expect(one('SELECT count(*) n FROM events')).toEqual({ n: 2 });
  });

  it('25. turn_start without turn_end; turnId restarts at 0 for the next request', async () => {
    const turn = (kind: 'turn_start' | 'turn_end', agent: string, id: string) =>
      line({ ts: T + 1, dur: 0, sid: 's1', type: kind, name: `${kind}:${id}`, spanId: `${kind}-${agent}-${id}`, parentSpanId: agent, status: 'ok', attrs: { turnId: id } });
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'A', 'one') + turn('turn_start', 'A', '0') + turn('turn_end', 'A', '0') + turn('turn_start', 'A', '1') + user('s1', 'B', 'two') + turn('turn_start', 'B', '0') + turn('turn_end', 'B', '0') });
    expect(q("SELECT name FROM events WHERE type LIKE 'turn_%' ORDER BY id").map((r) => (r as { name: string }).name)).toEqual([
      'turn_start:0',
      'turn_end:0',
      'turn_start:1',
      'turn_start:0',
      'turn_end:0',
    ]);
    expect(q('SELECT turn_index, user_message FROM turns ORDER BY turn_index')).toEqual([
      { turn_index: 0, user_message: 'one' },
      { turn_index: 1, user_message: 'two' },
    ]);
  });

  it('26–27. hooks with non_blocking_error (one in a child file) and generic events from spans and from core', async () => {
    const hook = (sid: string, span: string, kind: string) => line({ ts: T + 50, dur: 5, sid, type: 'hook', name: 'PreToolUse', spanId: span, status: 'ok', attrs: { command: 'lint.sh', resultKind: kind } });
    fx = await fixtureDb({
      'p1/main.jsonl': start('p1') + hook('p1', 'h1', 'non_blocking_error') + hook('p1', 'h2', 'error') + line({ ts: T, dur: 0, sid: 'p1', type: 'generic', name: 'span thing', spanId: 'g1', status: 'ok', attrs: { details: 'from a span' } }) + line({ ts: T, dur: 0, sid: 'p1', type: 'generic', name: 'core thing', spanId: 'core-9', status: 'ok', attrs: { details: 'from core', source: 'core' } }),
      'p1/runSubagent-x-c1.jsonl': hook('c1', 'h3', 'non_blocking_error'),
    });
    expect(q("SELECT e.span_id, e.status, s.id session FROM events e JOIN sessions s ON s.num = e.session_num WHERE e.type = 'hook' ORDER BY e.span_id")).toEqual([
      { span_id: 'h1', status: 0, session: 'p1' },
      { span_id: 'h2', status: 1, session: 'p1' },
      { span_id: 'h3', status: 0, session: 'c1' },
    ]);
    expect(one("SELECT count(*) n FROM events WHERE type = 'generic'")).toEqual({ n: 2 });
  });

  it('29. dangling parentSpanId values are kept as they are', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': tool('s1', 't1', 'nowhere', 'read_file', { filePath: '/a' }) });
    expect(one('SELECT parent_span_id FROM events')).toEqual({ parent_span_id: 'nowhere' });
  });

  it('31. a surrogate pair split by the 5,000-character cut is replaced, not fatal', async () => {
    const content = 'a'.repeat(4999) + '😀'.slice(0, 1) + '[truncated]';
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', content) });
    expect(one<{ user_message: string }>('SELECT user_message FROM turns').user_message).toBe('a'.repeat(4999) + '\uFFFD[truncated]');
  });

  it('32. session ids that are not UUIDs (Copilot CLI, Claude Code)', async () => {
    fx = await fixtureDb({ 'cli-9d83/main.jsonl': user('cli-9d83', 'u1', 'x'), 'claude code #5/main.jsonl': user('claude code #5', 'u2', 'y') });
    expect(q('SELECT id FROM sessions ORDER BY id')).toEqual([{ id: 'claude code #5' }, { id: 'cli-9d83' }]);
  });

  it('refs and files: PR URLs in messages, gh output, MCP args; one turn per user request with the full text', async () => {
    const longAnswer = 'answer '.repeat(400);
    fx = await fixtureDb({
      's1/main.jsonl':
        user('s1', 'u1', 'see https://github.com/o/r/pull/5') + reply('s1', 'l1', 'u1', 'part one') + reply('s1', 'l2', 'u1', longAnswer) +
        tool('s1', 't1', 'u1', 'mcp_github_get_issue', { owner: 'o', repo: 'r', issue_number: 9 }) +
        user('s1', 'u2', 'next', T + 100) + tool('s1', 't2', 'u2', 'read_file', { filePath: '/w/a.ts' }),
    });
    expect(q('SELECT ref_type, ref_value, turn_index FROM session_refs ORDER BY id')).toEqual([
      { ref_type: 'pr', ref_value: '5', turn_index: 0 },
      { ref_type: 'issue', ref_value: '9', turn_index: 0 },
    ]);
    expect(q('SELECT file_path, turn_index FROM session_files')).toEqual([{ file_path: '/w/a.ts', turn_index: 1 }]);
    expect(q('SELECT turn_index, assistant_response FROM turns ORDER BY turn_index')).toEqual([
      { turn_index: 0, assistant_response: 'part one\n' + longAnswer },
      { turn_index: 1, assistant_response: null },
    ]);
    // Chronicle's own FTS table answers Chronicle's documented query.
    expect(q("SELECT DISTINCT session_id FROM search_index WHERE search_index MATCH 'answer'")).toEqual([{ session_id: 's1' }]);
  });
});

describe('titles made of log text', () => {
  it('show bidi overrides and control characters as visible escapes', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': user('s1', 'u1', 'open \u202Egnp.exe\u202C and \u001b[31mred') });
    expect(one<{ title: string }>('SELECT title FROM sessions').title).toBe('open \\u{202e}gnp.exe\\u{202c} and \\u{001b}[31mred');
  });
});
