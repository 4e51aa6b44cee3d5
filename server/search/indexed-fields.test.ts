import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery, type SearchResponse } from '../../shared/api/search';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { searchSessions } from './search-sessions';
import { openReadDb } from '../db/open';
import { sessionKeyOf } from '../search-index/session-prompts';

// Issue 13, Deliver 4: a string a user saw in any field of any entry finds its session. Each session below holds
// one word nowhere else, in the field its name says; lines are written as the current logger writes them
// (FORMAT §10): span ids are counters that restart at 0000000000000001 in every session, both turn-id forms.

const TS = Date.now() - 3_600_000;
const sid = (n: number) => `${String(n).padStart(8, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`;
const span = (n: number) => n.toString(16).padStart(16, '0');

const USER_REQUEST = sid(1);
const DEBUG_NAME = sid(2);
const REQUEST_OPTIONS = sid(3);
const MODEL = sid(4);
const REASONING = sid(5);
const DISCOVERY = sid(6);
const HOOK = sid(7);
const CHILD_PARENT = sid(8);
const CHILD = 'c0c0c0c0-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const SYSTEM_PROMPT = sid(9);
const TOOLS = sid(10);
const PROMPT = sid(11);
const CUT_PROMPT = sid(12);
const LONG_CHAT = sid(13);
const BRACKETS = sid(14);
const HUGE = sid(15);
// two parts of 150 K characters: each fits the 256 K an event or a prompt string indexes, together they do not
const HUGE_PARTS = [{ type: 'text', content: 'the log goes on '.repeat(9_500) }, { type: 'text', content: `${'and on '.repeat(20_000)}and ends with plovercrest` }];

/** Six model calls of one request, each sent the whole conversation so far (2 messages more each time). */
function growingConversation(s: string): string {
  const said: string[] = [];
  let out = '';
  for (let i = 0; i < 6; i++) {
    said.push(`step ${i}: read file ${i}`, `result ${i}: 40 lines`);
    out += line({ ts: TS + 10 * i, dur: 5, sid: s, type: 'llm_request', name: 'chat:gpt-4.1', spanId: span(10 + i), parentSpanId: span(1), status: 'ok', attrs: { model: 'gpt-4.1', userRequest: 'fix the flaky test', inputMessages: messages(...said) } });
  }
  return out;
}

/** One request of a session, written with counter span ids: user_message, turn, llm_request, response, turn end. */
function request(s: string, o: { content?: string; llm?: object; llmName?: string; response?: object; turnForm?: 'underscore' | 'dash' }): string {
  const agent = span(1);
  const chat = span(2);
  const turn = o.turnForm === 'dash' ? 'turn-start' : 'turn_start';
  const turnEnd = o.turnForm === 'dash' ? 'turn-end' : 'turn_end';
  return (
    line({ v: 1, ts: TS, dur: 0, sid: s, type: 'session_start', name: 'session_start', spanId: `session-start-${s}`, status: 'ok', attrs: { copilotVersion: '0.45.0', vscodeVersion: '1.117.0' } }) +
    line({ ts: TS + 1, dur: 0, sid: s, type: 'user_message', name: 'user_message', spanId: agent, status: 'ok', attrs: { content: o.content ?? 'please look at the build' } }) +
    line({ ts: TS + 2, dur: 0, sid: s, type: 'turn_start', name: 'turn_start:0', spanId: `${turn}-${agent}-0`, status: 'ok', attrs: { turnId: 0 } }) +
    line({
      ts: TS + 3,
      dur: 900,
      sid: s,
      type: 'llm_request',
      name: o.llmName ?? 'chat:gpt-4.1',
      spanId: chat,
      parentSpanId: agent,
      status: 'ok',
      attrs: { model: 'gpt-4.1', inputTokens: 1200, outputTokens: 40, ttft: 300, ...o.llm },
    }) +
    line({
      ts: TS + 904,
      dur: 0,
      sid: s,
      type: 'agent_response',
      name: 'agent_response',
      spanId: `agent-msg-${chat}`,
      parentSpanId: agent,
      status: 'ok',
      attrs: { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Done.' }] }]), ...o.response },
    }) +
    line({ ts: TS + 905, dur: 0, sid: s, type: 'turn_end', name: 'turn_end:0', spanId: `${turnEnd}-${agent}-0`, status: 'ok', attrs: { turnId: '0' } })
  );
}

const LONG_MESSAGE = `${'the deploy log says '.repeat(260)}and then quillbarrow appeared`;
const messages = (...texts: string[]) => JSON.stringify(texts.map((t, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', parts: [{ type: 'text', content: t }] })));
const CUT_MESSAGES = (() => {
  const whole = messages('first question', 'first answer', `a pasted trace ${'x'.repeat(70_000)} fernwhistle at the end`);
  const cut = whole.slice(0, 20) + messages('first question', 'first answer', `a pasted trace with marrowglint inside ${'y'.repeat(70_000)}`).slice(20, 63_960);
  return `${cut}...[truncated, original ${whole.length} chars]`;
})();

let fx: FixtureDb;

beforeAll(async () => {
  fx = await fixtureDb({
    // the user message is cut at 5,000 characters: the word is only in the whole userRequest
    [`${USER_REQUEST}/main.jsonl`]: request(USER_REQUEST, { content: `${LONG_MESSAGE.slice(0, 5000)}[truncated]`, llm: { userRequest: LONG_MESSAGE } }),
    [`${DEBUG_NAME}/main.jsonl`]: request(DEBUG_NAME, { llm: { debugName: 'panel/tarnwhistleAgent', requestShape: 'chat-completions' } }),
    [`${REQUEST_OPTIONS}/main.jsonl`]: request(REQUEST_OPTIONS, { llm: { requestOptions: JSON.stringify({ temperature: 0.1, prediction: { type: 'content', content: 'const gravelmoth = 1;\nexport {}' } }) } }),
    [`${MODEL}/main.jsonl`]: request(MODEL, { llmName: 'chat:gpt-5.6-luna', llm: { model: 'gpt-5.6-luna' }, turnForm: 'dash' }),
    [`${REASONING}/main.jsonl`]: request(REASONING, { response: { reasoning: 'The user wants the cobaltfinch option, not the default.' } }),
    [`${DISCOVERY}/main.jsonl`]:
      request(DISCOVERY, {}) +
      line({
        ts: TS + 1000,
        dur: 0,
        sid: DISCOVERY,
        type: 'discovery',
        name: 'Load Skills',
        spanId: `core-${TS + 1000}`,
        status: 'ok',
        attrs: { details: JSON.stringify({ loaded: [], skipped: [{ file: 'skills/deploy/SKILL.md', reason: 'name-mismatch: "ember-wrangler" ≠ "deploy"' }] }), category: 'discovery', source: 'core' },
      }),
    [`${HOOK}/main.jsonl`]:
      request(HOOK, {}) +
      line({
        ts: TS + 1000,
        dur: 40,
        sid: HOOK,
        type: 'hook',
        name: 'PreToolUse',
        spanId: span(3),
        parentSpanId: span(1),
        status: 'ok',
        attrs: {
          command: '.github/hooks/guard.sh',
          input: JSON.stringify({ hookEventName: 'PreToolUse', toolInput: { command: 'echo "saltmarsh ready"\nexit 0' } }),
          output: JSON.stringify({ decision: 'deny', reason: 'blocked by "thornquill" policy' }),
          resultKind: 'success',
        },
      }),
    [`${CHILD_PARENT}/main.jsonl`]:
      request(CHILD_PARENT, {}) +
      line({ ts: TS + 1000, dur: 0, sid: CHILD_PARENT, type: 'child_session_ref', name: 'title', spanId: `child-ref-${CHILD}`, status: 'ok', attrs: { childSessionId: CHILD, childLogFile: `title-${CHILD}.jsonl`, label: 'title' } }),
    [`${CHILD_PARENT}/title-${CHILD}.jsonl`]:
      line({ v: 1, ts: TS + 1001, dur: 0, sid: CHILD, type: 'session_start', name: 'session_start', spanId: `session-start-${CHILD}`, status: 'ok', attrs: { parentSessionId: CHILD_PARENT, label: 'title' } }) +
      line({ ts: TS + 1002, dur: 500, sid: CHILD, type: 'llm_request', name: 'chat:gpt-4o-mini', spanId: span(1), status: 'ok', attrs: { model: 'gpt-4o-mini', debugName: 'title', requestOptions: '{"max_tokens":20,"stop":["lanternwick"]}' } }),
    [`${SYSTEM_PROMPT}/main.jsonl`]: request(SYSTEM_PROMPT, { llm: { systemPromptFile: 'system_prompt_0.json' } }),
    [`${SYSTEM_PROMPT}/system_prompt_0.json`]: JSON.stringify({ content: 'You are an expert programmer.\nAlways answer like the harborlynx style guide says.' }, null, 2),
    [`${TOOLS}/main.jsonl`]: request(TOOLS, { llm: { toolsFile: 'tools_0.json' } }),
    [`${TOOLS}/tools_0.json`]: JSON.stringify({ content: JSON.stringify([{ type: 'function', name: 'mcp_fjordpeak_deploy', description: 'Deploys "the app"\nto staging' }]) }, null, 2),
    [`${PROMPT}/main.jsonl`]: request(PROMPT, { llm: { inputMessages: messages('earlier: what does the wrenfeather flag do?', 'It disables caching.', 'please look at the build') } }),
    [`${CUT_PROMPT}/main.jsonl`]: request(CUT_PROMPT, { llm: { inputMessages: CUT_MESSAGES } }),
    [`${LONG_CHAT}/main.jsonl`]: growingConversation(LONG_CHAT),
    [`${HUGE}/main.jsonl`]: request(HUGE, {
      response: { response: JSON.stringify([{ role: 'assistant', parts: HUGE_PARTS }]) },
    }).replace(
      /(\{"ts":[^\n]*"type":"turn_end")/,
      line({ ts: TS + 950, dur: 5, sid: HUGE, type: 'llm_request', name: 'chat:gpt-4.1', spanId: span(5), parentSpanId: span(1), status: 'ok', attrs: { model: 'gpt-4.1', inputMessages: JSON.stringify([{ role: 'assistant', parts: HUGE_PARTS }]) } }) + '$1',
    ),
    [`${BRACKETS}/main.jsonl`]:
      request(BRACKETS, {}) +
      line({ ts: TS + 1000, dur: 900, sid: BRACKETS, type: 'tool_call', name: 'run_in_terminal', spanId: span(3), parentSpanId: span(1), status: 'ok', attrs: { args: '{"command":"npm run build"}', result: '[ERROR] build failed: sedgecombe.ts not found' } }) +
      // the same, cut at 5,000 characters by the logger (FORMAT §3.4): not JSON either, so still its words
      line({ ts: TS + 2000, dur: 900, sid: BRACKETS, type: 'tool_call', name: 'run_in_terminal', spanId: span(4), parentSpanId: span(1), status: 'ok', attrs: { args: '{"command":"npm test"}', result: `[WARN] 3 tests failed in marrowfinch.test.ts ${'at frame '.repeat(600)}`.slice(0, 5000) + '[truncated]' } }),
  });
}, 60_000);

afterAll(() => fx?.cleanup());

/** A needle as the UI sends a quoted phrase: its own quotes doubled. */
const phrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

function search(q: string): SearchResponse {
  return searchSessions(fx.db, SearchQuery.parse({ q, depth: 'all' }));
}

/** The sessions found and, per session, where it matched. */
function found(q: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const g of search(q).groups) for (const s of g.sessions) out[s.id] = s.kinds.map((k) => k.kind);
  return out;
}

describe('a string that is only in one field finds its session', () => {
  it('the uncut user message (llm_request.userRequest), past the 5,000-character cut of user_message', () => {
    expect(found('quillbarrow')).toEqual({ [USER_REQUEST]: ['prompt'] });
  });

  it('debugName', () => {
    expect(found('tarnwhistle')).toEqual({ [DEBUG_NAME]: ['llm'] });
  });

  it('requestOptions (JSON: its string values decoded, line break included)', () => {
    expect(found('"gravelmoth = 1; export"')).toEqual({ [REQUEST_OPTIONS]: ['llm'] });
    expect(found('prediction')).toEqual({}); // a key: a name, not a value
  });

  it('a model name, in the model attr and the name chat:<model>', () => {
    expect(found('gpt-5.6-luna')).toEqual({ [MODEL]: ['llm'] });
    expect(found('"chat:gpt-5.6"')).toEqual({ [MODEL]: ['llm'] });
  });

  it('never across two values: the end of debugName and the start of requestShape are not one phrase', () => {
    expect(found('"Agent chat-"')).toEqual({});
    expect(found('tarnwhistleAgent')).toEqual({ [DEBUG_NAME]: ['llm'] });
  });

  it('text in brackets that is not JSON is text ("[ERROR] …" tool output), cut at 5,000 characters or not', () => {
    expect(found('"build failed: sedgecombe"')).toEqual({ [BRACKETS]: ['tool'] });
    expect(found('"tests failed in marrowfinch"')).toEqual({ [BRACKETS]: ['tool'] });
  });

  it('a response longer than an event indexes: its end is still found, in the prompt that repeats it (not skipped as said)', () => {
    expect(found('plovercrest')).toEqual({ [HUGE]: ['prompt'] });
  });

  it('reasoning', () => {
    expect(found('cobaltfinch')).toEqual({ [REASONING]: ['turn'] });
  });

  it('discovery details, as the detail pane shows the JSON (quotes decoded)', () => {
    expect(found(phrase('name-mismatch: "ember-wrangler"'))).toEqual({ [DISCOVERY]: ['discovery'] });
  });

  it('hook input and output, decoded', () => {
    expect(found(phrase('echo "saltmarsh ready" exit 0'))).toEqual({ [HOOK]: ['hook'] });
    expect(found(phrase('by "thornquill" policy'))).toEqual({ [HOOK]: ['hook'] });
  });

  it('a child log (a title request), rolled up to its parent', () => {
    const r = search('lanternwick');
    expect(r.groups.flatMap((g) => g.sessions.map((s) => [s.id, s.subagentHits, s.hits[0].sessionId]))).toEqual([[CHILD_PARENT, 1, CHILD]]);
  });

  it('a system prompt file, matched in system prompt, its file named in the hit', () => {
    const r = search('"harborlynx style"');
    expect(found('"harborlynx style"')).toEqual({ [SYSTEM_PROMPT]: ['system_prompt'] });
    const hit = r.groups[0].sessions[0].hits[0];
    expect([hit.kind, hit.name, hit.snippet?.text]).toEqual(['system_prompt', 'system_prompt_0.json', 'You are an expert programmer. Always answer like the harborlynx style guide says.']);
  });

  it('a tools file (its JSON string parsed twice, the description decoded)', () => {
    expect(found('mcp_fjordpeak')).toEqual({ [TOOLS]: ['tools'] });
    expect(found(phrase('Deploys "the app" to staging'))).toEqual({ [TOOLS]: ['tools'] });
  });

  it('inputMessages only: matched in prompt, the hit on the model call with the message as its snippet', () => {
    const r = search('wrenfeather');
    expect(found('wrenfeather')).toEqual({ [PROMPT]: ['prompt'] });
    const hit = r.groups[0].sessions[0].hits[0];
    expect([hit.kind, hit.eventType, hit.snippet?.text]).toEqual([
      'prompt',
      'llm_request',
      'earlier: what does the wrenfeather flag do?',
    ]);
  });

  it('inputMessages cut by OTel at 64,000 characters: the cut message is still text', () => {
    expect(found('marrowglint')).toEqual({ [CUT_PROMPT]: ['prompt'] });
    expect(found('"first answer"')).toEqual({ [CUT_PROMPT]: ['prompt'] });
    expect(found('fernwhistle')).toEqual({}); // past the cut: not in the file either
  });
});

describe('the prompt index grows with the conversation, not with its square', () => {
  it('keeps each distinct string of a session once: 6 calls sending 2, 4 … 12 messages and one userRequest make 16 rows', () => {
    const read = openReadDb(fx.dbPath);
    const rows = read.prepare('SELECT count(*) n, count(DISTINCT event_id) calls FROM search.prompt_docs WHERE session_key = ?').get(sessionKeyOf(LONG_CHAT));
    read.close();
    // 12 message texts + the userRequest + the 3 values of the messages' structure (user, assistant, text);
    // the first call introduced 6 of them, each later call 2
    expect(rows).toEqual({ n: 16, calls: 6 });
    expect(found('"result 5: 40 lines"')).toEqual({ [LONG_CHAT]: ['prompt'] });
    expect(search('"step 0: read"').groups[0].sessions[0].kinds).toEqual([{ kind: 'prompt', count: 1 }]);
  });
});

describe('prompt and companion text after a rebuild and a rewrite', () => {
  it('a SCHEMA_VERSION rebuild keeps the prompt rows (the search file keys them by session id) and refills the companion index, once', async () => {
    const { setMeta, ensureSchema } = await import('../db/schema');
    const { rebuildDerived } = await import('../db/rebuild');
    const { IngestStore } = await import('../ingest/store');
    const count = () => fx.db.prepare('SELECT (SELECT count(*) FROM prompt_docs) docs, (SELECT count(*) FROM companion_text) companions').get();
    const before = count();
    setMeta(fx.db, 'schema_version', '0');
    expect(ensureSchema(fx.db)).toBe(true);
    rebuildDerived(fx.db, new IngestStore(fx.db));
    expect(count()).toEqual(before);
    expect(found('wrenfeather')).toEqual({ [PROMPT]: ['prompt'] });
    // sessions numbered otherwise (as a rebuild may): a prompt hit names its session through its event
    fx.db.exec('UPDATE sessions SET num = num + 1000; UPDATE events SET session_num = session_num + 1000');
    expect(found('wrenfeather')).toEqual({ [PROMPT]: ['prompt'] });
    expect(found('"harborlynx style"')).toEqual({ [SYSTEM_PROMPT]: ['system_prompt'] });
  });

  it('a companion file written again is searched by its new text only', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    fs.writeFileSync(path.join(fx.logsDir(), SYSTEM_PROMPT, 'system_prompt_0.json'), JSON.stringify({ content: 'You follow the osprey-kettle conventions.' }));
    await fx.reindex();
    expect(found('osprey-kettle')).toEqual({ [SYSTEM_PROMPT]: ['system_prompt'] });
    expect(found('harborlynx')).toEqual({});
  });
});
