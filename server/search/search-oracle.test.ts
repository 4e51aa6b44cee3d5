import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../corpus/generate';
import { SearchQuery, type SearchResponse } from '../../shared/api/search';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { indexOnce } from '../ingest/index-once';
import { cliTree } from '../ingest/cli/cli-fixture';
import { line } from '../test-support/fixture-db';
import { foldWhitespace } from './indexed-text';
import { classifyTerm } from './query-parser';
import { searchSessions } from './search-sessions';

// The oracle (issue 13, Deliver 8): on a generated corpus plus hand-written lines carrying every field the
// writer has (userRequest, debugName, requestOptions, reasoning, model names, discovery details, hook input and
// output, inputMessages whole and OTel-cut, companions), 300 random substrings (3+ characters, any script) of
// random string values of random lines of every file kind (main logs, child logs, companion files, Copilot CLI
// events.jsonl: every tenth pick) are searched
// as the UI sends a phrase, and checked against the files themselves — never against the index's own text:
// - no false negative: every session whose files hold the substring in a string value is found;
// - no false positive: every session found holds it in its files.
//
// "String values" are read the way a person reads the entry: every string of the entry (its name and attrs, at
// any depth), a JSON-valued string by the strings in it (decoded, at any depth; a cut one by its string
// tokens), a companion by its content. Numbers are not text. The entry's type-only name (`user_message`,
// `turn_start:2`) and ids of the envelope are not values either.

let dir: string;
let db: Database.Database;

interface Value {
  root: string;
  fileKind: 'main' | 'child' | 'companion' | 'cli';
  text: string;
}
/** every string value of every file, with the top-level session it rolls up to */
const values: Value[] = [];
/** top-level session id → its files' values (folded, lowercased) and its files' raw text (lowercased) */
const textByRoot = new Map<string, { values: string[]; raw: string[] }>();

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The strings a reader sees in a value: itself, or for JSON text the strings inside it (decoded, recursively). */
function stringsOf(v: unknown, out: string[]): void {
  if (typeof v === 'string') {
    const t = v.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        // cut JSON (5,000 characters, or OTel's 64,000, FORMAT §3.4): its string tokens, the last one possibly
        // unterminated; anything else that does not parse is read as it is
        if (/(\[truncated\]|\[truncated, original \d+ chars\])$/.test(v)) for (const m of v.matchAll(/"((?:[^"\\]|\\.)*)("|$)/g)) out.push(decodeToken(m[1]));
        else out.push(v);
        return;
      }
      stringsOf(parsed, out);
      return;
    }
    out.push(v);
  } else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out);
}

function decodeToken(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body.replace(/\\(["\\/])/g, '$1');
  }
}

function entryStrings(entry: Record<string, unknown>): string[] {
  const out: string[] = [];
  // A Copilot CLI line (INTEROP §3): the strings of its data; a model call is named chat:<model> like a debug log's
  if (typeof entry.timestamp === 'string' && typeof entry.id === 'string' && entry.data !== null && typeof entry.data === 'object' && !Array.isArray(entry.data)) {
    const data = entry.data as Record<string, unknown>;
    if (entry.type === 'assistant.message' && typeof data.model === 'string' && data.model !== '') out.push(`chat:${data.model}`);
    stringsOf(data, out);
    return out;
  }
  const type = typeof entry.type === 'string' ? entry.type : '';
  const name = entry.name;
  if (typeof name === 'string' && name !== type && type !== 'turn_start' && type !== 'turn_end') out.push(name);
  if (entry.attrs && typeof entry.attrs === 'object') stringsOf(entry.attrs, out);
  return out;
}

function companionStrings(file: string, text: string): string[] {
  try {
    const content = (JSON.parse(text) as { content?: unknown }).content;
    if (typeof content !== 'string') return [];
    if (path.basename(file).startsWith('system_prompt_')) return [content];
    const out: string[] = [];
    stringsOf(content, out);
    return out;
  } catch {
    return [];
  }
}

const TS = Date.UTC(2026, 10, 20, 9, 0, 0);
const HAND = 'e0e0e0e0-0a0a-4a0a-8a0a-0a0a0a0a0a0a';
const HAND_CHILD = 'e1e1e1e1-0a0a-4a0a-8a0a-0a0a0a0a0a0a';
const span = (n: number) => n.toString(16).padStart(16, '0');

/** A session with every field of FORMAT §3.2 and §10.4, in several scripts, counter span ids, both turn forms. */
function handWritten(ud: string): void {
  const storage = path.join(ud, 'User', 'workspaceStorage', 'feedface00000000000000000000oracle');
  const logs = path.join(storage, 'GitHub.copilot-chat', 'debug-logs', HAND);
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: 'file:///home/dev/oracle-app' }));
  const a = span(1);
  const messages = JSON.stringify([
    { role: 'system', parts: [{ type: 'text', content: 'Tu es un assistant précis: réponds en français élégant.' }] },
    { role: 'user', parts: [{ type: 'text', content: 'Pourquoi le déploiement échoue-t-il? 部署失败了 🚀 vraiment' }] },
    { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'read_file', arguments: '{"filePath":"/home/dev/oracle-app/déploiement.ts"}' }] },
  ]);
  const cut = `${messages.slice(0, -2)},{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":"Straße ${'ü'.repeat(30)} ending here`;
  const main =
    line({ v: 1, ts: TS, dur: 0, sid: HAND, type: 'session_start', name: 'session_start', spanId: `session-start-${HAND}`, status: 'ok', attrs: { copilotVersion: '0.46.1', vscodeVersion: '1.118.0' } }) +
    line({ ts: TS + 1, dur: 0, sid: HAND, type: 'user_message', name: 'user_message', spanId: a, status: 'ok', attrs: { content: 'Pourquoi le déploiement échoue-t-il? 部署失败了 🚀 vraiment' } }) +
    line({ ts: TS + 2, dur: 0, sid: HAND, type: 'turn_start', name: 'turn_start:0', spanId: `turn-start-${a}-0`, status: 'ok', attrs: { turnId: 0 } }) +
    line({
      ts: TS + 3,
      dur: 2100,
      sid: HAND,
      type: 'llm_request',
      name: 'chat:gpt-5.6-luna',
      spanId: span(2),
      parentSpanId: a,
      status: 'ok',
      attrs: {
        model: 'gpt-5.6-luna',
        inputTokens: 5120,
        outputTokens: 88,
        ttft: 640,
        userRequest: 'Pourquoi le déploiement échoue-t-il? 部署失败了 🚀 vraiment',
        inputMessages: messages,
        debugName: 'panel/editAgent-œuvre',
        requestOptions: JSON.stringify({ temperature: 0.2, reasoning_effort: 'medium', prediction: { type: 'content', content: 'const naïveCafé = "crème brûlée";' } }),
        requestShape: 'chat-completions/streaming',
        responseId: 'resp_0f1e2d3c4b5a69788796a5b4c3d2e1f0',
        systemPromptFile: 'system_prompt_0.json',
        toolsFile: 'tools_0.json',
      },
    }) +
    line({
      ts: TS + 2104,
      dur: 0,
      sid: HAND,
      type: 'agent_response',
      name: 'agent_response',
      spanId: `agent-msg-${span(2)}`,
      parentSpanId: a,
      status: 'ok',
      attrs: {
        response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Le fichier «déploiement.ts» lit une variable absente.\n日志显示 ENV 未设置。' }] }]),
        reasoning: 'L’utilisateur veut la cause — pas un contournement. 🔍 Regarder le journal.',
      },
    }) +
    line({
      ts: TS + 2200,
      dur: 35,
      sid: HAND,
      type: 'hook',
      name: 'PreToolUse',
      spanId: span(3),
      parentSpanId: a,
      status: 'ok',
      attrs: {
        command: '.github/hooks/garde.sh',
        input: JSON.stringify({ hookEventName: 'PreToolUse', toolInput: { command: 'echo "prêt à déployer"' } }),
        output: JSON.stringify({ decision: 'allow', reason: 'règle «lecture seule» respectée' }),
        resultKind: 'success',
      },
    }) +
    line({
      ts: TS + 2300,
      dur: 0,
      sid: HAND,
      type: 'discovery',
      name: 'Load Skills',
      spanId: `core-${TS + 2300}`,
      status: 'ok',
      attrs: { details: 'loaded: ["skills/déployer/SKILL.md"] skipped: [{"file":"skills/ラベル/SKILL.md","reason":"name-mismatch"}]', category: 'discovery', source: 'core' },
    }) +
    line({
      ts: TS + 2400,
      dur: 0,
      sid: HAND,
      type: 'child_session_ref',
      name: 'runSubagent-Explorateur',
      spanId: `child-ref-${HAND_CHILD}`,
      parentSpanId: span(3),
      status: 'ok',
      attrs: { childSessionId: HAND_CHILD, childLogFile: `runSubagent-Explorateur-${HAND_CHILD}.jsonl`, label: 'runSubagent-Explorateur' },
    }) +
    line({ ts: TS + 9000, dur: 900, sid: HAND, type: 'llm_request', name: 'chat:gpt-5.6-luna', spanId: span(4), parentSpanId: a, status: 'ok', attrs: { model: 'gpt-5.6-luna', inputMessages: `${cut.slice(0, 63_960)}...[truncated, original 70412 chars]` } }) +
    line({ ts: TS + 9901, dur: 0, sid: HAND, type: 'turn_end', name: 'turn_end:0', spanId: `turn-end-${a}-0`, status: 'ok', attrs: { turnId: '0' } });
  const child =
    line({ v: 1, ts: TS + 2401, dur: 0, sid: HAND_CHILD, type: 'session_start', name: 'session_start', spanId: `session-start-${HAND_CHILD}`, status: 'ok', attrs: { parentSessionId: HAND, label: 'runSubagent-Explorateur' } }) +
    line({ ts: TS + 2402, dur: 12, sid: HAND_CHILD, type: 'tool_call', name: 'grep_search', spanId: span(1), status: 'ok', attrs: { args: '{"query":"ENV_DÉPLOIEMENT","isRegexp":false}', result: '3 résultats dans config/équipe.yaml — 설정 파일' } });
  fs.writeFileSync(path.join(logs, 'main.jsonl'), main);
  fs.writeFileSync(path.join(logs, `runSubagent-Explorateur-${HAND_CHILD}.jsonl`), child);
  fs.writeFileSync(path.join(logs, 'system_prompt_0.json'), JSON.stringify({ content: 'Vous êtes GitHub Copilot.\nSuivez les règles de l’équipe «Orion».' }, null, 2));
  fs.writeFileSync(path.join(logs, 'tools_0.json'), JSON.stringify({ content: JSON.stringify([{ type: 'function', name: 'mcp_orion_déployer', description: 'Déploie l’application 🚢 vers la préproduction' }]) }, null, 2));
}

function listFiles(d: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) listFiles(p, out);
    else out.push(p);
  }
  return out;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-search-oracle-'));
  const manifest = await generateCorpus({ outDir: path.join(dir, 'corpus'), seed: 11, targetBytes: 3 * 1024 * 1024 });
  handWritten(manifest.userDataDirs[0]);
  db = openWriteDb(path.join(dir, 'index.db'));
  ensureSchema(db);
  // Copilot CLI sessions beside them (issue 20): the hand-written tree of server/ingest/cli/cli-fixture.ts
  const copilotHome = path.join(dir, '.copilot');
  for (const [rel, content] of Object.entries(cliTree())) {
    const file = path.join(copilotHome, 'session-state', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  await indexOnce(db, [...manifest.userDataDirs, copilotHome]);

  // Which top-level session a file rolls up to: the product's roll-up (a child belongs to its parent), read
  // from the files table and the sessions' parents, not from any search table.
  const sessions = db.prepare('SELECT id, parent_id, is_child FROM sessions').all() as { id: string; parent_id: string | null; is_child: number }[];
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const rootOf = (id: string): string => {
    let s = byId.get(id);
    const seen = new Set<string>();
    while (s && s.is_child && s.parent_id && byId.has(s.parent_id) && !seen.has(s.parent_id)) {
      seen.add(s.id);
      s = byId.get(s.parent_id);
    }
    return s?.id ?? id;
  };
  const sessionOfFile = new Map((db.prepare('SELECT path, session_id FROM files').all() as { path: string; session_id: string }[]).map((f) => [f.path, f.session_id]));
  const folderOfCompanion = new Map((db.prepare('SELECT path, session_id FROM companions').all() as { path: string; session_id: string }[]).map((c) => [c.path, c.session_id]));

  for (const ud of [...manifest.userDataDirs, copilotHome]) {
    for (const file of listFiles(ud)) {
      const base = path.basename(file);
      const isLog = sessionOfFile.has(file);
      const isCompanion = /^(system_prompt|tools)_\d+\.json$/.test(base) && folderOfCompanion.has(file);
      if (!isLog && !isCompanion) continue;
      const root = rootOf(isLog ? sessionOfFile.get(file)! : folderOfCompanion.get(file)!);
      const text = fs.readFileSync(file, 'utf8');
      let t = textByRoot.get(root);
      if (!t) textByRoot.set(root, (t = { values: [], raw: [] }));
      t.raw.push(text.toLowerCase());
      const fileKind = isCompanion ? 'companion' : base === 'events.jsonl' ? 'cli' : base === 'main.jsonl' || !base.includes('-') || base.startsWith(`${root}.`) ? 'main' : 'child';
      const strings: string[] = [];
      if (isCompanion) strings.push(...companionStrings(file, text));
      else {
        for (const l of text.split('\n')) {
          let entry: unknown;
          try {
            entry = JSON.parse(l);
          } catch {
            continue; // garbage lines and the unterminated tail: not entries
          }
          if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) strings.push(...entryStrings(entry as Record<string, unknown>));
        }
      }
      for (const s of strings) {
        const folded = foldWhitespace(s);
        if (folded === '') continue;
        values.push({ root, fileKind, text: s });
        t.values.push(folded.toLowerCase());
      }
    }
  }
}, 180_000);

afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sessions whose files hold the needle in a string value (folded, case-insensitive). */
function holders(needle: string): Set<string> {
  const n = needle.toLowerCase();
  const out = new Set<string>();
  for (const [root, t] of textByRoot) if (t.values.some((v) => v.includes(n))) out.add(root);
  return out;
}

/** Does the session's files' text hold the needle anywhere: a string value, or the raw bytes grep reads? */
function holds(root: string, needle: string): boolean {
  const t = textByRoot.get(root);
  const n = needle.toLowerCase();
  return t !== undefined && (t.values.some((v) => v.includes(n)) || t.raw.some((r) => r.includes(n)));
}

function found(r: SearchResponse): Set<string> {
  return new Set(r.groups.flatMap((g) => g.sessions.map((s) => s.id)));
}

function search(q: string, depth: 'first' | 'all' = 'all'): SearchResponse {
  return searchSessions(db, SearchQuery.parse({ q, depth, limit: 500, perGroup: 500 }));
}

/** The needle as the UI sends a quoted phrase: one term, its own quotes doubled, so spaces and `type:` stay literal. */
const asPhrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

interface Pick {
  needle: string;
  root: string;
  fileKind: Value['fileKind'];
}

/** `count` picks: a random value of a random file kind (main, child, companion in turn), a random 3–14 character substring. */
function picks(count: number, seed: number): Pick[] {
  const rnd = seeded(seed);
  const byKind = { main: values.filter((v) => v.fileKind === 'main'), child: values.filter((v) => v.fileKind === 'child'), companion: values.filter((v) => v.fileKind === 'companion') };
  const hand = values.filter((v) => v.root === HAND);
  const cli = values.filter((v) => v.fileKind === 'cli');
  const kinds = ['main', 'child', 'companion'] as const;
  const out: Pick[] = [];
  const seen = new Set<string>();
  let guard = 0;
  while (out.length < count && guard++ < count * 100) {
    // every tenth pick is from the hand-written session, whose fields the generator does not all write
    // and every tenth (another one) from the Copilot CLI sessions
    const pool = out.length % 10 === 9 ? hand : out.length % 10 === 4 ? cli : byKind[kinds[out.length % 3]];
    const v = pool[Math.floor(rnd() * pool.length)];
    const chars = Array.from(v.text); // code points: a pick never splits an emoji or a CJK character's surrogate pair
    if (chars.length < 3) continue;
    const len = Math.min(chars.length, 3 + Math.floor(rnd() * 12));
    const start = Math.floor(rnd() * (chars.length - len + 1));
    const needle = foldWhitespace(chars.slice(start, start + len).join(''));
    if (Array.from(needle).length < 3 || classifyTerm(needle) === null || seen.has(needle)) continue;
    seen.add(needle);
    out.push({ needle, root: v.root, fileKind: v.fileKind });
  }
  return out;
}

describe('search finds what the files hold (oracle over 300 random substrings)', () => {
  it('no false negative and no false positive, over every file kind and script', () => {
    const started = performance.now();
    const list = picks(300, 20261201);
    expect(list.length).toBe(300);
    const kindsPicked = new Set(list.map((p) => p.fileKind));
    expect([...kindsPicked].sort()).toEqual(['child', 'cli', 'companion', 'main']);
    const failures: string[] = [];
    for (const p of list) {
      const got = found(search(asPhrase(p.needle)));
      const want = holders(p.needle);
      const missing = [...want].filter((id) => !got.has(id));
      const extra = [...got].filter((id) => !holds(id, p.needle));
      if (!got.has(p.root) || missing.length > 0 || extra.length > 0) {
        failures.push(`${JSON.stringify(p.needle)} (${p.fileKind}): own session ${got.has(p.root) ? 'found' : 'MISSING'}, missing ${missing.length}, false ${extra.length}`);
      }
    }
    expect(failures).toEqual([]);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('picks span scripts: accented, CJK, emoji from the hand-written session, all found', () => {
    for (const n of ['déploiement', '部署失败', '🚀 vraiment', 'naïveCafé', 'crème brûlée', 'Straße', '설정 파일', 'ラベル', 'gpt-5.6-luna', 'panel/editAgent-œuvre', 'prêt à déployer', '«lecture seule»', 'préproduction', 'l’équipe «Orion»']) {
      expect([n, found(search(asPhrase(n))).has(HAND)]).toEqual([n, true]);
      expect([n, [...found(search(asPhrase(n)))].filter((id) => !holds(id, n))]).toEqual([n, []]);
    }
  });

  it('for 40 long phrases (49–2,000 characters: matched by a few pieces, then verified) and 40 altered ones', () => {
    const rnd = seeded(314);
    const long = values.map((v) => v.text).filter((t) => t.length > 120);
    expect(long.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let present = 0;
    for (let i = 0; i < 80; i++) {
      const t = long[Math.floor(rnd() * long.length)];
      const len = Math.min(t.length, 49 + Math.floor(rnd() * 1952));
      const start = Math.floor(rnd() * (t.length - len + 1));
      let n = foldWhitespace(t.slice(start, start + len));
      // Every other one altered in its middle: its pieces may all be in the text, the phrase is not.
      if (i % 2 === 1) n = `${n.slice(0, n.length >> 1)}§${n.slice((n.length >> 1) + 1)}`;
      if (n.length <= 48) continue;
      const want = holders(n);
      if (want.size > 0) present++;
      const got = found(search(asPhrase(n)));
      if ([...want].some((id) => !got.has(id)) || [...got].some((id) => !holds(id, n))) failures.push(`${JSON.stringify(n.slice(0, 60))}… (${n.length}): want ${want.size}, got ${got.size}`);
    }
    expect(failures).toEqual([]);
    expect(present).toBeGreaterThanOrEqual(35);
  });

  it('the first page (budgeted) never shows a session that does not hold the needle, and is complete when it says exact', () => {
    for (const p of picks(40, 5)) {
      const r = search(asPhrase(p.needle), 'first');
      const got = found(r);
      for (const id of got) expect([p.needle, id, holds(id, p.needle)]).toEqual([p.needle, id, true]);
      if (r.totals.exact) expect([p.needle, [...got].sort()]).toEqual([p.needle, [...found(search(asPhrase(p.needle)))].sort()]);
    }
  });

  it('for the corpus words people type: an identifier fragment, Chinese of 1 and 2 characters, a phrase across a line break', () => {
    for (const n of ['Reconnect', 'wsReconnectLoop', '落盘', '盘', '日志', 'ログ', '재시도', 'retry with backoff']) {
      expect([n, found(search(asPhrase(n)))]).toEqual([n, holders(n)]);
    }
    expect(holders('落盘').size).toBeGreaterThan(0);
    expect(holders('Reconnect').size).toBeGreaterThan(0);
  });
});
