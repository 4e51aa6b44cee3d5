// Faults of the CLI's side files end in no fact, never in a lost session: a workspace.yaml that is not YAML or
// not a mapping, a shutdown with odd metrics.
import { describe, expect, it } from 'vitest';
import { fixtureDb } from '../../test-support/fixture-db';
import { parseHostUsage } from './agent-host-usage';
import { LineageTraceQuery } from '../../../shared/api';
import { traceLineage } from '../../lineage/lineage-db';
import { getSessionDetail } from '../../sessions/session-detail';
import { CRASHED, DETACHED, MAIN, cliTree } from './cli-fixture';
import { parseWorkspaceYaml, shutdownTotals, workspaceYamlCwd } from './cli-session-facts';

describe('workspace.yaml', () => {
  it('a mapping is read; anything else is empty', () => {
    expect(parseWorkspaceYaml('id: x\ncwd: /home/dev/api\nsummary_count: 2\n')).toEqual({ id: 'x', cwd: '/home/dev/api', summary_count: 2 });
    expect(parseWorkspaceYaml('cwd: [unclosed')).toEqual({});
    expect(parseWorkspaceYaml('- a\n- b\n')).toEqual({});
    expect(parseWorkspaceYaml('')).toEqual({});
    expect(parseWorkspaceYaml(null)).toEqual({});
  });

  it("workspaceYamlCwd reads cwd as the YAML parser does, for the CLI's flat documents and everything else", () => {
    const parserCwd = (t: string) => {
      const v = parseWorkspaceYaml(t).cwd;
      return typeof v === 'string' && v.trim() !== '' ? v : null;
    };
    const doc = (cwd: string) => `id: 5a3d1eaa-5dfc-4b75-a32c-18c3e5de5cbf\ncwd: ${cwd}\ngit_root: /home/dev/code\nbranch: main\nsummary_count: 0\ncreated_at: 2026-11-24T00:00:00.000Z\n`;
    const values = [
      '/home/dev/code/scratchpad', '/home/my dir/x', 'C:\\Users\\dev\\repo', '~/code', '~', 'null', 'Null', 'true', 'FALSE', '0', '-12', '0x1F', '0o17', '1.5e3', '.inf', '-.Inf', '.nan',
      '/a # comment', '/a#b', "'/quoted'", '"/double"', '/a: b', '/a:', '/trailing ', '[/flow]', '{a: b}', '&anchor /x', '*alias', '!tag /x', '|', '>', '%x', '@x', '`x`',
      '-/dash', '?q', ':colon', '/ü/日本語/😀', '/a\u0001b', '/a\u007fb', '/a\u0085b', '/a\ufeffb', '/tab\there', '/a\r', '', ' /lead',
    ];
    const docs = [
      ...values.map(doc),
      doc('/x').replace('branch: main', 'cwd: /second'), // a key twice: the parser refuses the document
      doc('/x').replace('branch: main', 'true: 1\nTrue: 2'), // two keys that are one boolean
      doc('/x').replace('\n', '\r\n'),
      '---\n' + doc('/x'), '# comment\n' + doc('/x'), doc('/x') + '  indented: y\n', doc('/x') + '\n\n', 'cwd: /x', 'cwd:', 'cwd: ', '- a\n- b\n', 'cwd: [', '',
    ];
    for (const t of docs) expect([t, workspaceYamlCwd(t)]).toEqual([t, parserCwd(t)]);
    // the CLI's own documents take the line reader, not the parser
    expect(workspaceYamlCwd(doc('/home/dev/api'))).toBe('/home/dev/api');
    expect(workspaceYamlCwd(null)).toBeNull();
  });

  it('a broken workspace.yaml and vscode.metadata.json cost their facts, not the session', async () => {
    const tree = { ...cliTree(), [`${MAIN}/workspace.yaml`]: 'cwd: [', [`${MAIN}/vscode.metadata.json`]: '{"customTitle": "cut', [`${CRASHED}/workspace.yaml`]: '\u0000\u0001' };
    const fx = await fixtureDb({}, { cli: tree });
    try {
      const row = (id: string) => fx.db.prepare('SELECT title, cwd, repository, event_count FROM sessions WHERE id = ?').get(id);
      // session.start's context still gives the folder and repository; the title falls back to the first message
      expect(row(MAIN)).toEqual({ title: 'Fix the retry loop in the uploader', cwd: '/home/dev/uploader', repository: 'octo/uploader', event_count: 28 });
      expect(row(CRASHED)).toEqual({ title: 'Run the migrations', cwd: '/home/dev/api', repository: null, event_count: 9 });
    } finally {
      fx.cleanup();
    }
  });
});

describe('vscode.metadata.json', () => {
  it("VS Code's own shape names the folder and branch: workspaceFolder.folderPath, repositoryProperties.branchName", async () => {
    // ChatSessionMetadataFile as the Copilot Chat extension writes it; session.start and workspace.yaml say otherwise
    const meta = {
      workspaceFolder: { folderPath: '/home/dev/uploader-worktree', timestamp: 1764493200000 },
      repositoryProperties: { repositoryPath: '/home/dev/uploader-worktree', branchName: 'wt/retry-loop' },
      customTitle: 'Retry loop fix',
      firstUserMessage: 'Fix the retry loop in the uploader',
      origin: 'vscode',
    };
    const fx = await fixtureDb({}, { cli: { ...cliTree(), [`${MAIN}/vscode.metadata.json`]: JSON.stringify(meta) } });
    try {
      expect(fx.db.prepare('SELECT title, cwd, branch, repository FROM sessions WHERE id = ?').get(MAIN)).toEqual({
        title: 'Retry loop fix',
        cwd: '/home/dev/uploader-worktree',
        branch: 'wt/retry-loop',
        repository: 'octo/uploader', // not in the metadata file: session.start's context
      });
    } finally {
      fx.cleanup();
    }
  });
});

describe("vscode.metadata.json's parent", () => {
  const withParent = (kind: string) => ({ ...cliTree(), [`${CRASHED}/vscode.metadata.json`]: JSON.stringify({ parentSessionId: MAIN, kind, origin: 'vscode' }) });

  it('a session VS Code forked from another has it as its parent: in its row, its detail, the lineage graph and the count of children', async () => {
    const fx = await fixtureDb({}, { cli: withParent('forked') });
    try {
      expect(fx.db.prepare('SELECT parent_id, relation FROM sessions WHERE id = ?').get(CRASHED)).toEqual({ parent_id: MAIN, relation: 'fork' });
      expect(fx.db.prepare('SELECT parent_id, kind, source FROM session_edges WHERE child_id = ?').get(CRASHED)).toEqual({ parent_id: MAIN, kind: 'fork', source: 'metadata' });
      expect(getSessionDetail(fx.db, CRASHED)).toMatchObject({ parentId: MAIN });
      const family = traceLineage(fx.db, MAIN, LineageTraceQuery.parse({}));
      expect(family?.descendants.map((n) => [n.id, n.kind, n.source]).sort()).toEqual([
        [CRASHED, 'fork', 'metadata'],
        [DETACHED, 'fork', 'session_start'],
      ]);
      // MAIN's children: the two forks, whichever was refreshed first
      expect((fx.db.prepare('SELECT child_count n FROM sessions WHERE id = ?').get(MAIN) as { n: number }).n).toBe(2);
    } finally {
      fx.cleanup();
    }
  });

  it("a sub-session (started under another in VS Code's Agents view) is its child", async () => {
    const fx = await fixtureDb({}, { cli: withParent('sub-session') });
    try {
      expect(fx.db.prepare('SELECT parent_id, kind, source FROM session_edges WHERE child_id = ?').get(CRASHED)).toEqual({ parent_id: MAIN, kind: 'child', source: 'metadata' });
      expect(fx.db.prepare('SELECT parent_id FROM sessions WHERE id = ?').get(CRASHED)).toEqual({ parent_id: MAIN });
    } finally {
      fx.cleanup();
    }
  });

  it('a session naming itself, or nothing, has no parent from it', async () => {
    const fx = await fixtureDb({}, { cli: { ...cliTree(), [`${CRASHED}/vscode.metadata.json`]: JSON.stringify({ parentSessionId: CRASHED }) } });
    try {
      expect(fx.db.prepare('SELECT parent_id FROM sessions WHERE id = ?').get(CRASHED)).toEqual({ parent_id: null });
      expect(fx.db.prepare('SELECT count(*) n FROM session_edges WHERE child_id = ?').get(CRASHED)).toEqual({ n: 0 });
    } finally {
      fx.cleanup();
    }
  });
});

describe('session.shutdown and agentHostUsage', () => {
  it('odd metrics count as nothing; the session-wide credit total wins over the models', () => {
    const t = shutdownTotals({ modelMetrics: { a: { usage: { inputTokens: 5, cacheReadTokens: 'x' }, totalNanoAiu: 7 }, b: null, c: 'no' }, totalNanoAiu: 9 });
    expect({ ...t, byModel: [...t.byModel] }).toEqual({
      inputTokens: 5,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      creditsNano: 9,
      premiumRequests: null,
      apiDurationMs: null,
      byModel: [['a', { inputTokens: 5, cacheReadTokens: 0, creditsNano: 7 }]],
    });
    expect(shutdownTotals({}).creditsNano).toBeNull();
  });

  it('a side file line that is cut or garbage is skipped; credits are the rise of the running total', () => {
    const text = '{"turnId":"0","model":"m","inputTokens":10,"totalNanoAiu":100}\ngarbage\n{"turnId":1,"model":"m","inputTokens":5,"totalNanoAiu":250}\n{"turnId":"2","mod';
    expect(parseHostUsage(text).map((c) => [c.turnId, c.inputTokens, c.creditsNano])).toEqual([
      ['0', 10, 100],
      ['1', 5, 150],
    ]);
  });
});
