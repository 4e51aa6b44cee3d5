import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuildDerived } from '../db/rebuild';
import { ensureSchema } from '../db/schema';
import { IngestStore } from '../ingest/store';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { chooseEdge, type LinkFacts } from './derive-edges';
import { lineageFiles } from './lineage-fixture';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

function edges(f: FixtureDb) {
  return f.db.prepare('SELECT child_id, parent_id, kind, label, tool_span_id, tool_name, source FROM session_edges ORDER BY child_id').all();
}

const EXPECTED = [
  { child_id: 'C1', parent_id: 'P', kind: 'child', label: 'runSubagent-Explore', tool_span_id: 'Y1', tool_name: 'runSubagent', source: 'tool_span' },
  { child_id: 'C2', parent_id: 'C1', kind: 'child', label: 'runSubagent-Deep', tool_span_id: 'Y2', tool_name: 'runSubagent', source: 'tool_span' },
  { child_id: 'F', parent_id: 'P', kind: 'fork', label: null, tool_span_id: null, tool_name: null, source: 'session_start' },
  { child_id: 'G', parent_id: 'M', kind: 'fork', label: null, tool_span_id: null, tool_name: null, source: 'session_start' },
  { child_id: 'K', parent_id: 'F', kind: 'continuation', label: null, tool_span_id: null, tool_name: null, source: 'session_start' },
  { child_id: 'T', parent_id: 'P', kind: 'child', label: 'title', tool_span_id: null, tool_name: null, source: 'session_start' },
];

describe('session_edges from the logs', () => {
  it('links children with their label and tool, nests a subagent under the subagent that ran it, and finds forks', async () => {
    fx = await fixtureDb(lineageFiles());
    expect(edges(fx)).toEqual(EXPECTED);
    // sessions.parent_id agrees, and the counts of children follow
    const rows = fx.db.prepare("SELECT id, parent_id, child_count FROM sessions WHERE id IN ('P', 'C1', 'C2') ORDER BY id").all();
    expect(rows).toEqual([
      { id: 'C1', parent_id: 'P', child_count: 1 },
      { id: 'C2', parent_id: 'C1', child_count: 0 },
      { id: 'P', parent_id: null, child_count: 3 }, // T, C1 and the fork F
    ]);
  });

  it('is the same after the derived tables are rebuilt from the archive', async () => {
    fx = await fixtureDb(lineageFiles());
    fx.db.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    expect(ensureSchema(fx.db)).toBe(true);
    rebuildDerived(fx.db, new IngestStore(fx.db));
    expect(edges(fx)).toEqual(EXPECTED);
  });

  it('re-parents a nested child when the tool call that started it arrives after its log', async () => {
    // first pass: C1's log has not yet written its runSubagent tool call (it is written when the tool finishes)
    const files = lineageFiles();
    const full = files['P/runSubagent-Explore-C1.jsonl'];
    const withoutTool = full.split('\n').filter((l) => !l.includes('"spanId":"Y2"')).join('\n');
    fx = await fixtureDb({ ...files, 'P/runSubagent-Explore-C1.jsonl': withoutTool });
    expect(fx.db.prepare("SELECT parent_id, source FROM session_edges WHERE child_id = 'C2'").get()).toEqual({ parent_id: 'P', source: 'session_start' });
    fs.appendFileSync(path.join(fx.logsDir(), 'P/runSubagent-Explore-C1.jsonl'), full.split('\n').find((l) => l.includes('"spanId":"Y2"')) + '\n');
    await fx.reindex();
    expect(fx.db.prepare("SELECT parent_id, source FROM session_edges WHERE child_id = 'C2'").get()).toEqual({ parent_id: 'C1', source: 'tool_span' });
  });

  it('falls back to the folder for a LMAR child with no session_start, no ref and no subagent entry', async () => {
    fx = await fixtureDb({
      'A/main.jsonl': line({ ts: 1, dur: 0, sid: 'A', type: 'user_message', name: 'user_message', spanId: 'r', status: 'ok', attrs: { content: 'hi' } }),
      'A/summarize-B.jsonl': line({ ts: 2, dur: 5, sid: 'B', type: 'llm_request', name: 'chat:x', spanId: 'l', status: 'ok', attrs: {} }),
    });
    expect(edges(fx)).toEqual([{ child_id: 'B', parent_id: 'A', kind: 'child', label: 'summarize', tool_span_id: null, tool_name: null, source: 'folder' }]);
  });
});

describe('chooseEdge', () => {
  const facts = (o: Partial<LinkFacts>): LinkFacts => ({
    id: 'X', isChild: false, folderId: null, fileLabel: null, ref: null, start: null, startLabel: null, subagentParentSpanId: null, firstTs: 5, ...o,
  });
  const noTool = () => null;

  it('never makes a session its own parent', () => {
    expect(chooseEdge(facts({ start: { parentId: 'X', label: null, rIdx: 0, ts: 1 } }), noTool)).toBeNull();
    expect(chooseEdge(facts({ isChild: true, folderId: 'X' }), noTool)).toBeNull();
  });

  it('takes the ref holder before the folder when nothing else is known, and the subagent span when there is no ref', () => {
    expect(chooseEdge(facts({ isChild: true, folderId: 'P', ref: { holderId: 'Q', spanId: null, label: 'x', ts: 3 } }), noTool)).toMatchObject({ parentId: 'Q', source: 'child_ref', createdTs: 3 });
    const e = chooseEdge(facts({ isChild: true, folderId: 'P', subagentParentSpanId: 'Y' }), (s) => (s === 'Y' ? { sessionId: 'C', tool: 'runSubagent' } : null));
    expect(e).toMatchObject({ parentId: 'C', source: 'tool_span', toolSpanId: 'Y', toolName: 'runSubagent', createdTs: 5 });
  });

  it('a main log with no parent named has no edge', () => {
    expect(chooseEdge(facts({ startLabel: 'x' }), noTool)).toBeNull();
  });
});
