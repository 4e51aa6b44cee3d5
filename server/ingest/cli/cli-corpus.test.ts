// Issue 20's acceptance on the corpus generator's CLI sessions (server/corpus/cli-sessions.ts): its manifest says,
// per session, what a correct ingest must find (the jq counts), and the index must find exactly that.
import fs from 'node:fs';
import { allNodes } from '../../spans/span-tree';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery } from '../../../shared/api';
import { generateCorpus, type CorpusManifest } from '../../corpus/generate';
import { openWriteDb } from '../../db/open';
import { ensureSchema } from '../../db/schema';
import { searchSessions } from '../../search/search-sessions';
import { getSessionDetail } from '../../sessions/session-detail';
import { sessionTree } from '../../spans/tree-cache';
import { indexOnce } from '../index-once';

let dir: string;
let manifest: CorpusManifest;
let db: Database.Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-cli-corpus-'));
  manifest = await generateCorpus({ outDir: path.join(dir, 'corpus'), seed: 42, targetBytes: 2 * 1024 * 1024 });
  db = openWriteDb(path.join(dir, 'index.db'));
  ensureSchema(db);
  await indexOnce(db, [...manifest.userDataDirs, manifest.cli.home]);
}, 120_000);
afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the generated CLI sessions, indexed', () => {
  it('every session: its events, bad lines, output tokens, source and usage completeness are the manifest’s', () => {
    expect(manifest.cli.sessions.length).toBeGreaterThan(3);
    for (const s of manifest.cli.sessions) {
      const row = db
        .prepare('SELECT s.source, s.event_count, s.tokens_out, s.usage_complete, (SELECT sum(bad_lines) FROM files f WHERE f.session_id = s.id) bad FROM sessions s WHERE id = ?')
        .get(s.sessionId);
      expect({ id: s.sessionId, ...(row as object) }).toEqual({
        id: s.sessionId,
        source: 'cli',
        event_count: s.events,
        tokens_out: s.outputTokens,
        usage_complete: s.hasShutdown || s.usageFile !== null ? 1 : 0,
        bad: s.badLines,
      });
      expect(getSessionDetail(db, s.sessionId)).toMatchObject({ eventCount: s.events, workspaceFolder: s.cwd, repository: s.repository, branch: s.branch, source: 'cli' });
    }
  });

  it("tool calls are one span each with the completion's status; subagents and their calls sit under the spawning tool", () => {
    for (const s of manifest.cli.sessions) {
      const t = sessionTree(db, s.sessionId)!.tree;
      const tools = allNodes(t).filter((n) => n.entry.type === 'tool_call' || n.entry.type === 'tool.execution_start');
      expect({ id: s.sessionId, tools: tools.length, failed: tools.filter((n) => n.entry.status === 1).length, orphans: t.stats.orphans }).toEqual({
        id: s.sessionId,
        tools: s.toolCalls,
        failed: s.failedToolCalls,
        orphans: 0,
      });
      const subagents = allNodes(t).filter((n) => n.entry.type === 'subagent' || n.entry.type === 'subagent.started');
      expect(subagents.length).toBe(s.subagents);
      for (const a of subagents) expect(['tool_call', 'tool.execution_start']).toContain(allNodes(t)[a.parent]?.entry.type);
    }
  });

  it('a string of one CLI tool result finds that session, marked cli; the fork has its parent', () => {
    for (const s of manifest.cli.sessions) {
      const found = searchSessions(db, SearchQuery.parse({ q: s.uniqueResultText, depth: 'all' })).groups.flatMap((g) => g.sessions);
      expect(found.map((x) => ({ id: x.id, source: x.source }))).toEqual([{ id: s.sessionId, source: 'cli' }]);
    }
    const { fork } = manifest.cli.notable;
    expect(getSessionDetail(db, fork.sessionId)?.parentId).toBe(fork.parentId);
  });
});
