import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus, type CorpusManifest } from '../corpus/generate';
import { LineageTraceResponse, type LineageTreeNode } from '../../shared/api';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { indexOnce } from '../ingest/index-once';
import { lineageForest } from './forest';
import { traceLineage } from './lineage-db';

// Acceptance (issue 6) on a generated ~3 MB corpus with nested subagents, forks and a fork whose parent is
// missing: every child log appears exactly once, under the session that created it, and the missing parent
// breaks the chain where the manifest says.

let dir: string;
let manifest: CorpusManifest;
let db: Database.Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-lineage-'));
  manifest = await generateCorpus({ outDir: path.join(dir, 'corpus'), seed: 7, targetBytes: 3 * 1024 * 1024 });
  db = openWriteDb(path.join(dir, 'index.db'));
  ensureSchema(db);
  await indexOnce(db, manifest.userDataDirs);
}, 120_000);

afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The parent of each child log, read from the files without the indexer: the session whose log holds the
 * child_session_ref naming it (the agent that created it writes the ref), else the folder it sits in.
 */
function expectedParents(): Map<string, string> {
  const refHolder = new Map<string, string>();
  for (const f of manifest.files) {
    for (const l of fs.readFileSync(f.path, 'utf8').split('\n')) {
      if (!l.includes('"type":"child_session_ref"')) continue;
      try {
        const o = JSON.parse(l) as { sid: string; attrs: { childSessionId: string } };
        if (!refHolder.has(o.attrs.childSessionId)) refHolder.set(o.attrs.childSessionId, o.sid);
      } catch {
        /* a cut line */
      }
    }
  }
  const out = new Map<string, string>();
  for (const f of manifest.files.filter((x) => x.kind === 'child')) out.set(f.sessionId, refHolder.get(f.sessionId) ?? path.basename(path.dirname(f.path)));
  return out;
}

function walk(nodes: LineageTreeNode[], parent: string, seen: Map<string, string[]>): void {
  for (const n of nodes) {
    seen.set(n.id, [...(seen.get(n.id) ?? []), parent]);
    walk(n.descendants, n.id, seen);
  }
}

describe('lineage of a generated corpus', () => {
  it('has nested subagents, a fork and a fork with a missing parent to check', () => {
    expect(manifest.notable.nestedSubagentSessions.length).toBeGreaterThan(0);
    expect(manifest.notable.forkWithMissingParent.sessionId).not.toBe('');
    expect(manifest.files.filter((f) => f.kind === 'child').length).toBeGreaterThan(20);
  });

  it('every child log appears exactly once in the traces of the roots, under the session that created it', () => {
    // the tops of the chains: no parent, or a parent not in the index (the fork whose parent is missing)
    const roots = (
      db.prepare('SELECT id FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM session_edges e JOIN sessions p ON p.id = e.parent_id WHERE e.child_id = s.id)').all() as { id: string }[]
    ).map((r) => r.id);
    const seen = new Map<string, string[]>();
    for (const r of roots) {
      const t = LineageTraceResponse.parse(traceLineage(db, r, { depth: 200, limit: 5000 }));
      expect(t.truncated).toBeNull();
      walk(t.descendants, r, seen);
    }
    const expected = expectedParents();
    const wrong: string[] = [];
    for (const [child, parent] of expected) {
      const found = seen.get(child) ?? [];
      if (found.length !== 1 || found[0] !== parent) wrong.push(`${child}: expected under ${parent}, found under [${found.join(', ')}]`);
    }
    expect(wrong).toEqual([]);
  });

  it('nests each nested subagent under a subagent session, reached through the tool call that started it', () => {
    for (const id of manifest.notable.nestedSubagentSessions) {
      const t = LineageTraceResponse.parse(traceLineage(db, id, { depth: 5, limit: 100 }));
      expect(t.complete).toBe(true);
      expect(t.ancestors.length, id).toBeGreaterThanOrEqual(2);
      expect(t.ancestors[0].isChild, id).toBe(true);
      expect(t.ancestors[0].label ?? '', id).toMatch(/^(runSubagent|searchSubagent)/);
      if (t.target.toolSpanId) expect(t.target.toolName, id).toMatch(/subagent/i);
    }
  });

  it('the fork whose parent is missing: complete false with the right unresolvedParentId', () => {
    const { sessionId, missingParentId } = manifest.notable.forkWithMissingParent;
    const t = LineageTraceResponse.parse(traceLineage(db, sessionId, { depth: 5, limit: 100 }));
    expect(t.complete).toBe(false);
    expect(!t.complete && t.unresolvedParentId).toBe(missingParentId);
    expect(t.target.kind).toBe('fork');
    // and a fork of an indexed session hangs under it
    const fork = manifest.notable.fork;
    if (fork) {
      const f = LineageTraceResponse.parse(traceLineage(db, fork.sessionId, { depth: 5, limit: 100 }));
      expect(f.ancestors[0]?.id).toBe(fork.parentId);
      expect(f.target.kind).toBe('fork');
    }
  });

  it('the forest over all time holds every session once', () => {
    const ids = new Set<string>();
    let dupes = 0;
    let cursor: string | undefined;
    do {
      const page = lineageForest(db, { window: 'all', limit: 100, branching: '0', cursor });
      const visit = (n: LineageTreeNode) => {
        if (ids.has(n.id)) dupes++;
        ids.add(n.id);
        n.descendants.forEach(visit);
      };
      page.trees.forEach((t) => visit(t.root));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(dupes).toBe(0);
    const active = (db.prepare('SELECT count(*) n FROM sessions WHERE event_count > 0 OR log_deleted = 1').get() as { n: number }).n;
    expect(ids.size).toBeGreaterThanOrEqual(active);
  });
});
