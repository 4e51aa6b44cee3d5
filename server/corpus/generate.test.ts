// The manifest is the oracle other tests compare the indexer against, so it is checked here against an
// independent, deliberately naive reader of the files on disk (split on '\n', JSON.parse, count).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOW, generateCorpus, type CorpusManifest } from './generate';
import { parseSize } from './size';
import { fileUri } from './workspace';

const SIZE = 2 * 1024 * 1024;
const DAY = 86_400_000;

interface ReadBack {
  completeLines: number;
  events: Record<string, unknown>[];
  badLines: number;
  partialTail: boolean;
  bytes: number;
}

/** Reads a JSONL file the simplest possible way: complete lines end in '\n'; an object per line or it is bad. */
function readBack(file: string): ReadBack {
  const buf = fs.readFileSync(file);
  const decoder = new TextDecoder();
  const out: ReadBack = { completeLines: 0, events: [], badLines: 0, partialTail: false, bytes: buf.length };
  let start = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, start)) {
    const text = decoder.decode(buf.subarray(start, i));
    start = i + 1;
    out.completeLines++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      out.badLines++;
      continue;
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.events.push(value as Record<string, unknown>);
    else out.badLines++;
  }
  out.partialTail = start < buf.length;
  return out;
}

function walk(dir: string, found: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, found);
    else found.push(p);
  }
  return found;
}

/** Hash of every generated file by relative path; outDir (which workspace.json names) is masked. */
function treeHash(outDir: string): string {
  const h = createHash('sha256');
  const masks = [fileUri(outDir), outDir];
  for (const file of walk(outDir).sort()) {
    const rel = path.relative(outDir, file);
    if (rel === 'manifest.json') continue;
    let content = fs.readFileSync(file);
    if (path.basename(file) === 'workspace.json') {
      let text = content.toString();
      for (const m of masks) text = text.split(m).join('<OUT>');
      content = Buffer.from(text);
    }
    h.update(rel).update('\0').update(content).update('\0');
  }
  return h.digest('hex');
}

const tmpRoots: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-test-'));
  tmpRoots.push(dir);
  return dir;
}

let outDir: string;
let manifest: CorpusManifest;
const read = new Map<string, ReadBack>();
const allEvents = (): Record<string, unknown>[] => [...read.values()].flatMap((r) => r.events);
const attrs = (e: Record<string, unknown>) => e.attrs as Record<string, unknown>;

beforeAll(async () => {
  outDir = tempDir();
  manifest = await generateCorpus({ outDir, seed: 42, targetBytes: SIZE });
  // agentHostUsage/*.jsonl are VS Code's side files of CLI sessions, checked in cli-sessions.test.ts.
  for (const dir of manifest.userDataDirs) for (const f of walk(dir)) if (f.endsWith('.jsonl') && !f.includes(`${path.sep}agentHostUsage${path.sep}`)) read.set(f, readBack(f));
});

afterAll(() => {
  for (const dir of tmpRoots) fs.rmSync(dir, { recursive: true, force: true });
});

describe('manifest counts match an independent read of the files', () => {
  it('lists exactly the *.jsonl files on disk (main.jsonl.tmp is not one)', () => {
    expect(manifest.files.map((f) => f.path).sort()).toEqual([...read.keys()].sort());
    expect(manifest.totals.files).toBe(read.size);
  });

  it('has per-file lines, events, bad lines, partial tail and bytes equal to the reader', () => {
    for (const f of manifest.files) {
      const r = read.get(f.path)!;
      expect({ path: f.path, lines: f.lines, complete: f.completeLines, events: f.parseableLines, bad: f.badLines, partial: f.partialTail, bytes: f.bytes }).toEqual({
        path: f.path,
        lines: r.completeLines,
        complete: r.completeLines,
        events: r.events.length,
        bad: r.badLines,
        partial: r.partialTail,
        bytes: r.bytes,
      });
    }
  });

  it('has totals equal to the reader, including jq-style dur > 5000 and status == "error" counts', () => {
    const events = allEvents();
    const rs = [...read.values()];
    expect(manifest.totals).toEqual({
      files: rs.length,
      lines: rs.reduce((s, r) => s + r.completeLines, 0),
      events: events.length,
      badLines: rs.reduce((s, r) => s + r.badLines, 0),
      sessions: new Set(events.map((e) => e.sid)).size,
      slowEvents: events.filter((e) => (e.dur as number) > 5000).length,
      errorEvents: events.filter((e) => e.status === 'error').length,
    });
    expect(manifest.bytes).toBe(rs.reduce((s, r) => s + r.bytes, 0) + manifest.cli.bytes);
  });

  it('stamps every line with the session id of its file', () => {
    for (const f of manifest.files) for (const e of read.get(f.path)!.events) expect(e.sid).toBe(f.sessionId);
  });

  it('writes what JSON.stringify writes: no spaces, keys in logger order', () => {
    const order = ['v', 'ts', 'dur', 'sid', 'type', 'name', 'spanId', 'parentSpanId', 'status', 'attrs', 'rIdx'];
    for (const e of allEvents().slice(0, 5000)) {
      const keys = Object.keys(e);
      expect(keys).toEqual(order.filter((k) => keys.includes(k)));
      expect(Number.isInteger(e.ts) && Number.isInteger(e.dur)).toBe(true);
    }
  });

  it('lands within 5% of the requested size and has realistic shares of slow and failed calls', () => {
    expect(Math.abs(manifest.bytes - SIZE) / SIZE).toBeLessThan(0.05);
    const { events, slowEvents, errorEvents } = manifest.totals;
    expect(slowEvents / events).toBeGreaterThan(0.01);
    expect(slowEvents / events).toBeLessThan(0.06);
    expect(errorEvents).toBeGreaterThan(0);
  });
});

describe('determinism', () => {
  it('produces the same bytes for the same seed, even in another directory, and different bytes for another seed', async () => {
    const again = tempDir();
    const other = tempDir();
    await generateCorpus({ outDir: again, seed: 42, targetBytes: SIZE });
    await generateCorpus({ outDir: other, seed: 43, targetBytes: SIZE });
    expect(treeHash(again)).toBe(treeHash(outDir));
    expect(treeHash(other)).not.toBe(treeHash(outDir));
  });
});

describe('output directory', () => {
  it('refuses to write over a Code folder it did not create (it could be real VS Code data)', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'Code'));
    await expect(generateCorpus({ outDir: dir, targetBytes: 1 << 20 })).rejects.toThrow(/not written by the corpus generator/);
    expect(fs.readdirSync(dir)).toEqual(['Code']);
  });
});

describe('layout (FORMAT §1-§2)', () => {
  it('has two user-data dirs, each with workspaceStorage', () => {
    expect(manifest.userDataDirs.map((d) => path.basename(d)).sort()).toEqual(['Code', 'Code - Insiders']);
    for (const d of manifest.userDataDirs) expect(fs.existsSync(path.join(d, 'User', 'workspaceStorage'))).toBe(true);
  });

  it('has at least 5 workspaces with every kind of metadata', () => {
    expect(manifest.workspaces.length).toBeGreaterThanOrEqual(5);
    const kinds = manifest.workspaces.map((w) => {
      const ws = path.join(w.storageDir, 'workspace.json');
      if (fs.existsSync(ws)) return Object.keys(JSON.parse(fs.readFileSync(ws, 'utf8')))[0];
      return fs.existsSync(path.join(w.storageDir, 'meta.json')) ? 'meta' : 'none';
    });
    expect(new Set(kinds)).toEqual(new Set(['folder', 'workspace', 'meta', 'none']));
    const uris = manifest.workspaces.map((w) => path.join(w.storageDir, 'workspace.json')).filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f, 'utf8'));
    expect(uris.some((u) => u.includes('%20'))).toBe(true); // a space in the folder name
    expect(uris.some((u) => u.includes('%E6%97%A5'))).toBe(true); // 日 in the folder name
  });

  it('points workspaces at real checkouts whose origin and HEAD match the manifest', () => {
    const withRepo = manifest.workspaces.filter((w) => w.repository !== null);
    expect(withRepo.length).toBeGreaterThanOrEqual(4);
    for (const w of withRepo) {
      const root = w.folder!.endsWith('.code-workspace') ? path.dirname(w.folder!) : w.folder!;
      expect(fs.readFileSync(path.join(root, '.git', 'config'), 'utf8')).toContain(`url = ${w.repository}`);
      expect(fs.readFileSync(path.join(root, '.git', 'HEAD'), 'utf8')).toBe(`ref: refs/heads/${w.branch}\n`);
    }
    expect(withRepo.some((w) => w.repository!.includes('gitlab.example.com'))).toBe(true);
    const noGit = manifest.workspaces.find((w) => w.folder !== null && w.repository === null)!;
    expect(fs.existsSync(path.join(noGit.folder!, '.git'))).toBe(false);
  });

  it('writes child logs of every label beside main.jsonl, and the companion files', () => {
    const names = manifest.files.filter((f) => f.kind === 'child').map((f) => path.basename(f.path));
    for (const label of ['title-', 'categorization-', 'runSubagent-', 'searchSubagent-', 'runSubagent-my_agent-']) {
      expect(names.some((n) => n.startsWith(label))).toBe(true);
    }
    const big = manifest.files.find((f) => f.sessionId === manifest.notable.bigSessionId && f.kind === 'main')!;
    const dir = path.dirname(big.path);
    const inBig = fs.readdirSync(dir);
    for (const label of ['title-', 'categorization-', 'summarize-', 'searchSubagent-', 'runSubagent-default-']) {
      expect(inBig.some((n) => n.startsWith(label))).toBe(true);
    }
    for (const f of ['models.json', 'system_prompt_0.json', 'tools_0.json']) expect(fs.existsSync(path.join(dir, f))).toBe(true);
    const tools = JSON.parse(fs.readFileSync(path.join(dir, 'tools_0.json'), 'utf8')) as { content: string };
    expect(Array.isArray(JSON.parse(tools.content))).toBe(true); // content is a JSON string: parse twice
  });

  it('links subagent children with child_session_ref.parentSpanId = the runSubagent tool span', () => {
    const events = allEvents();
    const refs = events.filter((e) => e.type === 'child_session_ref' && String(e.name).startsWith('runSubagent-') && e.parentSpanId);
    expect(refs.length).toBeGreaterThan(0);
    const toolSpans = new Set(events.filter((e) => e.type === 'tool_call' && String(e.name).endsWith('runSubagent')).map((e) => e.spanId));
    for (const r of refs) expect(toolSpans.has(r.parentSpanId)).toBe(true);
  });

  it('has nested subagents whose parent is itself a subagent child', () => {
    const nested = manifest.notable.nestedSubagentSessions;
    expect(nested.length).toBeGreaterThanOrEqual(2);
    const childIds = new Set(manifest.files.filter((f) => f.kind === 'child').map((f) => f.sessionId));
    for (const id of nested) {
      const file = manifest.files.find((f) => f.sessionId === id)!;
      const start = read.get(file.path)!.events.find((e) => e.type === 'session_start')!;
      expect(childIds.has(String(attrs(start).parentSessionId))).toBe(true);
    }
  });

  it('has a fork whose parent is in the corpus and one whose parent is not', () => {
    const { sessionId, missingParentId } = manifest.notable.forkWithMissingParent;
    const main = manifest.files.find((f) => f.sessionId === sessionId && f.kind === 'main')!;
    const first = read.get(main.path)!.events.find((e) => e.type === 'session_start')!;
    expect(attrs(first).parentSessionId).toBe(missingParentId);
    expect(manifest.files.some((f) => f.sessionId === missingParentId)).toBe(false);
    const fork = manifest.notable.fork!;
    expect(manifest.files.some((f) => f.sessionId === fork.parentId && f.kind === 'main')).toBe(true);
  });

  it('keeps every timestamp within the 120-day window and never after now', () => {
    for (const e of allEvents()) {
      if ((e.ts as number) < 1e12) continue; // the garbage object line "{"ts":1,...}" is not parseable anyway
      expect(e.ts as number).toBeGreaterThan(DEFAULT_NOW - 123 * DAY);
      expect((e.ts as number) + (e.dur as number)).toBeLessThanOrEqual(DEFAULT_NOW);
    }
  });
});

describe('edge cases (FORMAT §7)', () => {
  const linesOf = (type: string) => allEvents().filter((e) => e.type === type);

  it('has legacy flat files with 500-character truncation and no session_start', () => {
    const legacy = manifest.files.filter((f) => f.kind === 'legacy');
    expect(legacy.length).toBe(2);
    for (const f of legacy) {
      expect(path.basename(path.dirname(f.path))).toBe('debug-logs');
      const events = read.get(f.path)!.events;
      expect(events.some((e) => e.type === 'session_start')).toBe(false);
      for (const e of events) for (const v of Object.values(attrs(e))) if (typeof v === 'string') expect(v.length).toBeLessThanOrEqual(511);
    }
  });

  it('has an LMAR folder: no session_start, no turns, child_session_ref without parentSpanId', () => {
    const id = manifest.notable.lmarSessionId!;
    const events = manifest.files.filter((f) => path.basename(path.dirname(f.path)) === id).flatMap((f) => read.get(f.path)!.events);
    expect(events.some((e) => e.type === 'session_start' || e.type === 'turn_start')).toBe(false);
    const refs = events.filter((e) => e.type === 'child_session_ref');
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(r.parentSpanId).toBeUndefined();
  });

  it('counts exactly one partial tail, the garbage lines and the size-cap fragment as bad lines', () => {
    expect(manifest.files.filter((f) => f.partialTail).length).toBe(1);
    expect(manifest.totals.badLines).toBe(8);
    const capped = manifest.files.find((f) => f.sessionId === manifest.notable.sizeCappedSessionId && f.kind === 'main')!;
    expect(fs.existsSync(capped.path + '.tmp')).toBe(true);
    expect(read.get(capped.path)!.events.some((e) => e.type === 'session_start')).toBe(false);
  });

  it('has an empty session folder and a folder with only models.json', () => {
    expect(fs.readdirSync(manifest.notable.emptySessionDirs![0])).toEqual([]);
    expect(fs.readdirSync(manifest.notable.modelsOnlySessionDirs![0])).toEqual(['models.json']);
  });

  it('has naming variants, post-LVS attributes, chat:unknown and failed model calls without tokens', () => {
    const llm = linesOf('llm_request');
    expect(llm.some((e) => e.name === 'llm_request')).toBe(true);
    expect(llm.some((e) => e.name === 'chat:unknown')).toBe(true);
    expect(linesOf('tool_call').some((e) => String(e.name).startsWith('tool:'))).toBe(true);
    expect(linesOf('turn_start').some((e) => e.name === 'turn_start')).toBe(true);
    expect(llm.some((e) => 'debugName' in attrs(e) && 'copilotUsageNanoAiu' in attrs(e) && 'responseId' in attrs(e))).toBe(true);
    const failed = llm.filter((e) => e.status === 'error');
    expect(failed.length).toBeGreaterThan(0);
    for (const e of failed) expect('inputTokens' in attrs(e) || 'outputTokens' in attrs(e)).toBe(false);
  });

  it('numbers span ids like the writer: a counter from 1 per session family and run, so unrelated sessions share ids', () => {
    // FORMAT §10.2. Core events (ids from VS Code core), the broadcast line and synthetic ids are left out.
    const synthetic = /^(session-start|child-ref|agent-msg|turn_start|turn_end|core)-/;
    const broadcast = manifest.notable.broadcastUserMessage?.spanId;
    const core = new Set(linesOf('discovery').concat(linesOf('generic').filter((e) => attrs(e).source === 'core')).map((e) => e.spanId));
    const holders = new Map<string, Set<string>>();
    const families = new Map<string, Set<string>>();
    for (const f of manifest.files) {
      const family = f.kind === 'legacy' ? f.path : path.dirname(f.path);
      for (const e of read.get(f.path)!.events) {
        const id = String(e.spanId);
        if (synthetic.test(id) || core.has(e.spanId) || id === broadcast) continue;
        expect(id).toMatch(/^[0-9a-f]{16}$/);
        (families.get(family) ?? families.set(family, new Set()).get(family)!).add(id);
        (holders.get(id) ?? holders.set(id, new Set()).get(id)!).add(family);
      }
    }
    // every family counts from 1 (but the size-capped one, whose head was cut), so they all hold id 1
    const capped = manifest.notable.sizeCappedSessionId;
    const without = [...families].filter(([family, ids]) => !ids.has('0000000000000001')).map(([family]) => path.basename(family));
    expect(without).toEqual([capped]);
    expect([...holders.values()].filter((h) => h.size > 1).length).toBeGreaterThan(100);
    // a resumed run starts again at 1: its first request reuses an id of the first run in the same file
    const resumed = manifest.files.filter((f) => read.get(f.path)!.events.some((e) => e.rIdx === 1));
    expect(resumed.length).toBeGreaterThan(0);
    for (const f of resumed) {
      const events = read.get(f.path)!.events;
      const first = new Set(events.filter((e) => !e.rIdx && !synthetic.test(String(e.spanId))).map((e) => e.spanId));
      expect(events.some((e) => e.rIdx === 1 && e.type === 'user_message' && first.has(e.spanId))).toBe(true);
    }
  });

  it('broadcasts one user_message spanId into two sessions and replays discovery spans into many', () => {

    const { spanId, sessionIds } = manifest.notable.broadcastUserMessage!;
    const holders = linesOf('user_message').filter((e) => e.spanId === spanId).map((e) => e.sid);
    expect(new Set(holders)).toEqual(new Set(sessionIds));
    const bySpan = new Map<string, Set<unknown>>();
    for (const e of linesOf('discovery')) bySpan.set(String(e.spanId), (bySpan.get(String(e.spanId)) ?? new Set()).add(e.sid));
    expect(Math.max(...[...bySpan.values()].map((s) => s.size))).toBeGreaterThan(1);
  });

  it('splits a surrogate pair at the 5,000-character cut and truncates long values with [truncated]', () => {
    const strings = allEvents().flatMap((e) => Object.values(attrs(e)).filter((v): v is string => typeof v === 'string'));
    expect(strings.some((s) => s.length === 5011 && /[\ud800-\udbff]\[truncated\]$/.test(s))).toBe(true);
    expect(strings.some((s) => s.endsWith('[truncated]') && s.startsWith('[{"role":"assistant"'))).toBe(true);
    expect(strings.some((s) => s.endsWith(' chars]') && s.includes('...[truncated, original '))).toBe(true);
  });

  it('has sessions with non-UUID ids, resumed runs and a sanitized child label', () => {
    expect(manifest.notable.nonUuidSessionIds!.length).toBe(2);
    for (const id of manifest.notable.nonUuidSessionIds!) expect(manifest.files.some((f) => f.sessionId === id)).toBe(true);
    const rIdx = new Set(allEvents().map((e) => e.rIdx).filter((r) => r !== undefined));
    expect(rIdx).toEqual(new Set([1, 2]));
    const ref = linesOf('child_session_ref').find((e) => attrs(e).label === 'runSubagent-my/agent')!;
    expect(String(attrs(ref).childLogFile)).toMatch(/^runSubagent-my_agent-/);
  });

  it('plants each rare word in exactly one top-level session folder', () => {
    expect(manifest.notable.rareWords.length).toBeGreaterThan(0);
    for (const word of manifest.notable.rareWords) {
      const folders = new Set(
        manifest.files.filter((f) => f.kind !== 'legacy' && fs.readFileSync(f.path, 'utf8').includes(word)).map((f) => path.dirname(f.path)),
      );
      expect(folders.size).toBe(1);
    }
  });
});

describe('parseSize', () => {
  it('reads binary units and rejects nonsense', () => {
    expect(parseSize('10m')).toBe(10 * 1024 * 1024);
    expect(parseSize('1g')).toBe(1024 ** 3);
    expect(parseSize('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(parseSize('4096')).toBe(4096);
    expect(() => parseSize('ten')).toThrow(/invalid size/);
  });
});
