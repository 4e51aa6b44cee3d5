import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/corpus/generate';
import { SearchQuery, type SearchResponse } from '../../shared/api/search';
import type { RawLogEntry } from '../../shared/log-entry';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { indexOnce } from '../ingest/index-once';
import { normalizeEntry } from '../ingest/normalize';
import { rawLines } from '../db/raw-lines';
import { foldWhitespace, indexedText } from './indexed-text';
import { classifyTerm } from './query-parser';
import { searchSessions } from './search-sessions';

// The oracle (issue 3, "no false negatives"): on a generated ~3 MB corpus, random substrings of the indexed
// text (event texts, titles, paths; CJK of 1–2 characters) are searched, and the sessions found must be
// exactly those a brute-force scan of the archive finds — every archived line parsed again, no index used.

let dir: string;
let db: Database.Database;
/** top-level session id → every searchable text of it and of its child sessions, lowercased */
const unitsByRoot = new Map<string, string[]>();

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-search-oracle-'));
  const manifest = await generateCorpus({ outDir: path.join(dir, 'corpus'), seed: 11, targetBytes: 3 * 1024 * 1024 });
  db = openWriteDb(path.join(dir, 'index.db'));
  ensureSchema(db);
  await indexOnce(db, manifest.userDataDirs);

  // Roll-up as the product promises it: a child session (subagent, title…) belongs to its top-level session.
  const sessions = db.prepare('SELECT id, parent_id, is_child, title, label FROM sessions').all() as {
    id: string;
    parent_id: string | null;
    is_child: number;
    title: string | null;
    label: string | null;
  }[];
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
  const add = (sessionId: string, text: string) => {
    if (text === '') return;
    const root = rootOf(sessionId);
    let list = unitsByRoot.get(root);
    if (!list) unitsByRoot.set(root, (list = []));
    list.push(text.toLowerCase());
  };
  const lines = db.prepare('SELECT l.id, f.session_id FROM lines l JOIN files f ON f.id = l.file_id WHERE l.kind = 0').all() as {
    id: number;
    session_id: string;
  }[];
  const raw = rawLines(db);
  for (const l of lines) add(l.session_id, indexedText(normalizeEntry(JSON.parse(raw.text(l.id) as string) as RawLogEntry)));
  for (const s of sessions) add(s.id, foldWhitespace([s.id, s.title, s.label].filter((x) => x).join(' ')));
  for (const f of db.prepare('SELECT session_id, file_path FROM session_files').all() as { session_id: string; file_path: string }[]) add(f.session_id, f.file_path);
}, 180_000);

afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function bruteForce(needle: string): Set<string> {
  const n = needle.toLowerCase();
  const out = new Set<string>();
  for (const [root, texts] of unitsByRoot) if (texts.some((t) => t.includes(n))) out.add(root);
  return out;
}

function found(r: SearchResponse): Set<string> {
  return new Set(r.groups.flatMap((g) => g.sessions.map((s) => s.id)));
}

function search(q: string, depth: 'first' | 'all' = 'all'): SearchResponse {
  return searchSessions(db, SearchQuery.parse({ q, depth, limit: 500, perGroup: 500 }));
}

/** Random needles: substrings of the corpus's own searchable texts, 3–14 characters, and CJK runs of 1–2. */
function needles(count: number, seed: number): string[] {
  const rnd = seeded(seed);
  const all = [...unitsByRoot.values()].flat();
  const out = new Set<string>();
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{1,2}/gu;
  const cjkTexts = all.filter((t) => /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}]/u.test(t));
  let guard = 0;
  while (out.size < count && guard++ < count * 50) {
    if (out.size % 5 === 4 && cjkTexts.length > 0) {
      const t = cjkTexts[Math.floor(rnd() * cjkTexts.length)];
      const runs = [...t.matchAll(cjk)].map((m) => m[0]);
      const run = runs[Math.floor(rnd() * runs.length)];
      if (run) out.add(Array.from(run).slice(0, 1 + Math.floor(rnd() * 2)).join(''));
      continue;
    }
    const t = Array.from(all[Math.floor(rnd() * all.length)]);
    if (t.length < 3) continue;
    const len = 3 + Math.floor(rnd() * 12);
    const start = Math.floor(rnd() * Math.max(1, t.length - len));
    const s = foldWhitespace(t.slice(start, start + len).join(''));
    if (classifyTerm(s) !== null) out.add(s);
  }
  return [...out];
}

/** The needle as one query term: a phrase, its quotes doubled, so that spaces and metacharacters stay literal. */
const asPhrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

describe('search finds exactly the sessions grep finds', () => {
  it('for 150 random substrings of the indexed text (events, titles, paths, 1–2 character CJK)', () => {
    const list = needles(150, 20260101);
    expect(list.length).toBeGreaterThanOrEqual(150);
    const failures: string[] = [];
    for (const n of list) {
      const want = bruteForce(n);
      const got = found(search(asPhrase(n)));
      const missing = [...want].filter((id) => !got.has(id));
      const extra = [...got].filter((id) => !want.has(id));
      if (missing.length > 0 || extra.length > 0) failures.push(`${JSON.stringify(n)}: missing ${missing.length}, extra ${extra.length}`);
    }
    expect(failures).toEqual([]);
  });

  it('for 40 long phrases (49–2,000 characters: matched by a few pieces, then verified) and 40 altered ones', () => {
    const rnd = seeded(314);
    const long = [...unitsByRoot.values()].flat().filter((t) => t.length > 120);
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
      const want = bruteForce(n);
      if (want.size > 0) present++;
      const got = found(search(asPhrase(n)));
      if ([...want].some((id) => !got.has(id)) || [...got].some((id) => !want.has(id))) failures.push(`${JSON.stringify(n.slice(0, 60))}… (${n.length}): want ${want.size}, got ${got.size}`);
    }
    expect(failures).toEqual([]);
    expect(present).toBeGreaterThanOrEqual(35);
  });

  it('as bare words too (no quotes) when the needle has no space or quote', () => {
    const list = needles(80, 77).filter((n) => !/[\s"]/.test(n) && !n.startsWith('-') && !/^[a-z]+:/i.test(n));
    expect(list.length).toBeGreaterThan(40);
    for (const n of list) expect([n, found(search(n))]).toEqual([n, bruteForce(n)]);
  });

  it('the first page (budgeted) never shows a session grep does not find, and is complete when it says exact', () => {
    for (const n of needles(40, 5)) {
      const r = search(asPhrase(n), 'first');
      const want = bruteForce(n);
      const got = found(r);
      for (const id of got) expect([n, id, want.has(id)]).toEqual([n, id, true]);
      if (r.totals.exact) expect([n, got.size]).toEqual([n, want.size]);
      expect(r.totals.sessions).toBeLessThanOrEqual(want.size);
    }
  });

  it('for the corpus words people type: an identifier fragment, Chinese of 1 and 2 characters, a phrase across a line break', () => {
    for (const n of ['Reconnect', 'wsReconnectLoop', '落盘', '盘', '日志', 'ログ', '재시도', 'retry with backoff']) {
      const want = bruteForce(n);
      expect([n, found(search(asPhrase(n)))]).toEqual([n, want]);
    }
    expect(bruteForce('落盘').size).toBeGreaterThan(0);
    expect(bruteForce('Reconnect').size).toBeGreaterThan(0);
  });
});
