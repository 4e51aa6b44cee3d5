import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LineageTraceResponse } from '../../shared/api';
import { runCliCaptured } from '../test-support/run-cli-captured';
import { fixtureDb, type FixtureDb } from '../test-support/fixture-db';
import { displayWidth } from '../cli/text-table';
import { formatDuration, nodeLine } from './format-trace';
import { lineageFiles } from './lineage-fixture';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

async function trace(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  fx ??= await fixtureDb(lineageFiles());
  return runCliCaptured(['trace', ...args, '--db', path.join(fx.root, 'cli.db'), '--logs', path.join(fx.root, 'Code')]);
}

describe('chronoscope trace', () => {
  it('prints the ancestors nearest first and the descendants as a tree', async () => {
    const { code, out } = await trace('C1');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^session {2}runSubagent-Explore {2}C1 .*5 events · 1 error · 7\.9s {2}via runSubagent Y1$/);
    expect(lines[1]).toBe('complete: yes, root P');
    expect(out).toContain('ancestors (nearest first): 1\n  1. root  P  "explore the retry loop"');
    expect(out).toContain('descendants: 1\nC1\n└─ runSubagent-Deep  C2');
  });

  it('draws the tree of the top session with branches', async () => {
    const { out } = await trace('P');
    const lines = out.slice(out.indexOf('descendants:')).split('\n').slice(1, 7);
    const expected = ['P', '├─ title  T', '├─ runSubagent-Explore  C1', '│  └─ runSubagent-Deep  C2', '└─ fork  F', '   └─ continuation  K'];
    expect(lines.map((l, i) => (l === expected[i] || l.startsWith(`${expected[i]}  `) ? expected[i] : l))).toEqual(expected);
  });

  it('says when the chain breaks, takes a unique id prefix, and --json prints the API body', async () => {
    const broken = await trace('G');
    expect(broken.out).toContain('complete: no, parent M is not in the index');
    expect(broken.out).toContain('  1. M  (not in the index)');
    const json = await trace('C', '--json'); // C1 and C2 share the prefix
    expect(json.code).toBe(2);
    expect(json.err).toBe('chronoscope trace: C names more than one session (C1, C2…): give more of the id\n');
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'ambiguous_id', message: 'C names more than one session (C1, C2…): give more of the id' } });
    const viaJson = await trace('C2', '--json');
    const t = LineageTraceResponse.parse(JSON.parse(viaJson.out));
    expect(t.ancestors.map((a) => a.id)).toEqual(['C1', 'P']);
    expect(await trace('nope')).toMatchObject({ code: 2, err: 'chronoscope trace: no session nope in the index: check the id (`chronoscope search` finds sessions)\n' });
    expect((await trace()).code).toBe(2);
  });

  it('--depth cuts the tree and says so', async () => {
    const { out } = await trace('P', '--depth', '1');
    expect(out).toContain('│  └─ … 1 more not shown');
    expect(out).toContain('(cut by depth: 2 children not shown; raise --depth / --limit)');
  });
});

describe('formatDuration', () => {
  it('reads at a glance', () => {
    expect([formatDuration(null), formatDuration(850), formatDuration(7905), formatDuration(125_000), formatDuration(3 * 3600_000 + 120_000), formatDuration(3600_000 - 1), formatDuration(2 * 3600_000 - 1)]).toEqual([
      '—',
      '850ms',
      '7.9s',
      '2m05s',
      '3h02m',
      '59m59s',
      '1h59m',
    ]);
  });
});

describe('nodeLine', () => {
  it('cuts a title to 60 terminal columns, a CJK character two, and groups the counts', () => {
    const title = '로그 파일이 너무 커서 읽기가 어렵습니다. test/ws.test.ts에서 타임아웃이 발생하는 원인을 찾아 주세요.';
    const line = nodeLine({
      id: 'C1', title, label: 'runSubagent-Planner', parentId: 'P', kind: 'child', source: null, toolSpanId: null, toolName: null,
      createdAt: null, firstTs: null, lastTs: null, durationMs: 127_000, eventCount: 4_778, errorCount: 27, repository: null,
      isChild: true, logDeleted: false, hasLog: true, childCount: 0,
    });
    const quoted = line.slice(line.indexOf('"') + 1, line.lastIndexOf('"'));
    expect(displayWidth(quoted)).toBeLessThanOrEqual(60);
    expect(quoted).toBe('로그 파일이 너무 커서 읽기가 어렵습니다. test/ws.test.ts에…'); // 59 columns: 서 would make 61
    expect(line.endsWith('"  4,778 events · 27 errors · 2m07s')).toBe(true);
  });
});
