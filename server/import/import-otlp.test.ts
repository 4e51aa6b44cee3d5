import fs from 'node:fs';
import { allNodes } from '../spans/span-tree';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWriteDb } from '../db/open';
import { rawLines } from '../db/raw-lines';
import { ensureSchema } from '../db/schema';
import { exportedDocument, exportFixtureFiles, PARENT } from '../export/export-fixture';
import { indexOnce } from '../ingest/index-once';
import { listSessions } from '../sessions/list-sessions';
import { sessionTree } from '../spans/tree-cache';
import { fixtureDb, type FixtureDb } from '../test-support/fixture-db';
import { importOtlp } from './import-otlp';
import { OtlpReadError } from './read-otlp';

// Import: our export comes back as the same span tree (durations, tokens, text: field by field); VS Code's own
// export and JSON lines from an OTel file exporter come in as the entries Copilot would have written.

let fx: FixtureDb;
let dir: string;
beforeAll(async () => {
  fx = await fixtureDb(exportFixtureFiles());
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-import-'));
});
afterAll(() => {
  fx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rawText = (db: Parameters<typeof sessionTree>[0], id: number) => rawLines(db).text(id);

async function freshIndex(importsDir: string) {
  const db = openWriteDb(path.join(dir, `${path.basename(importsDir)}.db`));
  ensureSchema(db);
  await indexOnce(db, [importsDir]);
  return db;
}

/**
 * The tree as parent → child relations of nodes described by every field the view shows, sorted: siblings
 * that start at the same millisecond may come in another order (line order differs between the files), which
 * is the same tree.
 */
function treeRows(db: Parameters<typeof sessionTree>[0], id: string) {
  const t = sessionTree(db, id)!.tree;
  const key = (i: number) => {
    if (i < 0) return 'root';
    const e = allNodes(t)[i].entry;
    return [allNodes(t)[i].depth, e.sessionId, e.type, e.name, e.status, e.ts, e.dur, e.model, e.tool, e.ttft, e.tokensIn, e.tokensOut, e.spanId, e.parentSpanId].join('|');
  };
  return allNodes(t).map((n, i) => `${key(n.parent)} -> ${key(i)}`).sort();
}

/** Every archived line's text, sorted: the attrs of every event came back whole. */
const lineTexts = (db: Parameters<typeof sessionTree>[0]) => (db.prepare('SELECT id FROM events').all() as { id: number }[]).map((r) => rawText(db, r.id)).sort();

describe('import of our own export', () => {
  it('gives back the same span tree, durations, tokens and text', async () => {
    const imports = path.join(dir, 'roundtrip');
    const doc = exportedDocument(fx.db, PARENT)!;
    const r = importOtlp(JSON.stringify(doc), imports, null);
    expect(r.skipped).toEqual([]);
    expect(r.written.map((w) => [w.sessionId, w.lines, w.files.map((f) => path.basename(f)).sort()])).toEqual([
      [PARENT, 19, ['main.jsonl', 'runSubagent-Explore-eeeeeeee-0000-4000-8000-0000000000e2.jsonl']],
    ]);
    const db = await freshIndex(imports);
    try {
      expect(treeRows(db, PARENT)).toEqual(treeRows(fx.db, PARENT));
      expect(lineTexts(db)).toEqual(lineTexts(fx.db));
      const s = listSessions(db, { window: 'all', children: '0', limit: 10 }).sessions;
      expect(s.map((x) => [x.id, x.imported, x.title, x.tokensIn, x.credits])).toEqual([[PARENT, true, 'Why does the retry loop spin?', 37_000, 1.5]]);
    } finally {
      db.close();
    }
  });

  it('leaves out a session the index already has from its own logs, and says so', () => {
    const r = importOtlp(JSON.stringify(exportedDocument(fx.db, PARENT)!), path.join(dir, 'dup'), fx.db);
    expect(r).toMatchObject({ skipped: [PARENT], written: [] });
  });
});

describe('import of OTLP from elsewhere', () => {
  const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
  const T = Date.UTC(2026, 10, 30, 10);
  const kv = (key: string, v: string | number) => ({ key, value: typeof v === 'number' ? { intValue: v } : { stringValue: v } });
  // VS Code's own export: traceId is a literal, the user text is a span event, numbers are intValue.
  const vscodeDoc = {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', 'copilot-chat')] },
        scopeSpans: [
          {
            spans: [
              { traceId: 'exported-trace', spanId: 'a1', name: 'invoke_agent', startTimeUnixNano: ns(T), endTimeUnixNano: ns(T + 9000), attributes: [kv('gen_ai.operation.name', 'invoke_agent'), kv('copilot_chat.session_id', 'vs-1')], events: [{ name: 'user_message', timeUnixNano: ns(T), attributes: [kv('content', 'fix the flaky test')] }] },
              { traceId: 'exported-trace', spanId: 'a2', parentSpanId: 'a1', name: 'chat gpt-4.1', startTimeUnixNano: ns(T + 10), endTimeUnixNano: ns(T + 3010), attributes: [kv('gen_ai.operation.name', 'chat'), kv('gen_ai.request.model', 'gpt-4.1'), { key: 'gen_ai.usage.input_tokens', value: { intValue: '1200' } }, kv('gen_ai.usage.output_tokens', 30)] },
              { traceId: 'exported-trace', spanId: 'a3', parentSpanId: 'a1', name: 'run_in_terminal', startTimeUnixNano: ns(T + 3100), endTimeUnixNano: ns(T + 3150), status: { code: 2, message: 'exit code 1' }, attributes: [kv('gen_ai.operation.name', 'execute_tool'), kv('gen_ai.tool.name', 'run_in_terminal'), kv('gen_ai.tool.call.arguments', '{"command":"npm test"}')] },
            ],
          },
        ],
      },
    ],
  };

  it('VS Code\'s export: a request with its model call and a failed tool', async () => {
    const imports = path.join(dir, 'vscode');
    importOtlp(JSON.stringify(vscodeDoc), imports, null);
    const db = await freshIndex(imports);
    try {
      const rows = db.prepare('SELECT type, name, status, dur, model, tokens_in, tokens_out, error FROM events ORDER BY ts, id').all();
      expect(rows).toEqual([
        { type: 'user_message', name: 'user_message', status: 0, dur: 0, model: null, tokens_in: null, tokens_out: null, error: null },
        { type: 'llm_request', name: 'chat gpt-4.1', status: 0, dur: 3000, model: 'gpt-4.1', tokens_in: 1200, tokens_out: 30, error: null },
        { type: 'tool_call', name: 'run_in_terminal', status: 1, dur: 50, model: null, tokens_in: null, tokens_out: null, error: 'exit code 1' },
      ]);
      const t = sessionTree(db, 'vs-1')!.tree;
      expect(allNodes(t).map((n) => [n.depth, n.entry.type])).toEqual([
        [0, 'user_message'],
        [1, 'llm_request'],
        [1, 'tool_call'],
      ]);
    } finally {
      db.close();
    }
  });

  it('JSON lines (the OTel file exporter, Copilot\'s otel.outfile) read line by line', async () => {
    const imports = path.join(dir, 'lines');
    const [a, b] = [structuredClone(vscodeDoc), structuredClone(vscodeDoc)];
    a.resourceSpans[0].scopeSpans[0].spans = a.resourceSpans[0].scopeSpans[0].spans.slice(0, 2);
    b.resourceSpans[0].scopeSpans[0].spans = b.resourceSpans[0].scopeSpans[0].spans.slice(2);
    const r = importOtlp(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`, imports, null);
    expect(r.spans).toBe(3);
    expect(r.written[0].lines).toBe(3);
  });

  it('refuses what is not OTLP, saying why', () => {
    expect(() => importOtlp('{"hello":1}', path.join(dir, 'x'), null)).toThrow(new OtlpReadError('the file has no spans (no resourceSpans[].scopeSpans[].spans[])'));
    expect(() => importOtlp('{"resourceSpans":[{}]}', path.join(dir, 'x'), null)).toThrow('a resourceSpans entry has no scopeSpans array');
    expect(() => importOtlp('not json\n', path.join(dir, 'x'), null)).toThrow('line 1 is not JSON');
  });
});
