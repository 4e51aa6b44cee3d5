import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../../shared/api';
import { groupByRepository, inRepositoryAndWindow, repositoryLabel } from './group-by-repository';

function session(id: string, repository: string | null, updatedAt: number): SessionSummary {
  return {
    id,
    title: null,
    repository,
    branch: null,
    workspaceFolder: null,
    createdAt: updatedAt,
    updatedAt,
    eventCount: 1,
    errorCount: 0,
    isChild: false,
    parentId: null,
    label: null,
    logDeleted: false,
    models: [],
    tokensIn: 0,
    tokensOut: 0,
    credits: null,
    imported: false,
    source: 'vscode',
    usageComplete: true,
    childCount: 0,
  };
}

describe('groupByRepository', () => {
  it('orders groups by their newest session, keeps the list order inside each, and puts "No workspace" last', () => {
    // newest first, as the API returns them: the newest session has no repository
    const list = [session('n1', null, 90), session('a1', 'me/app', 80), session('b1', 'me/lib', 70), session('a2', 'me/app', 60), session('n2', null, 50)];
    const groups = groupByRepository(list);
    expect(groups.map((g) => [repositoryLabel(g.repository), g.sessions.map((s) => s.id)])).toEqual([
      ['me/app', ['a1', 'a2']],
      ['me/lib', ['b1']],
      ['No workspace', ['n1', 'n2']],
    ]);
  });

  it('an empty list has no groups; a list without repositories has only "No workspace"', () => {
    expect(groupByRepository([])).toEqual([]);
    expect(groupByRepository([session('x', null, 1)]).map((g) => g.repository)).toEqual([null]);
  });
});

describe('inRepositoryAndWindow', () => {
  it('ends the sentence of an empty list: repository, then window, nothing for no filter', () => {
    expect(`No sessions${inRepositoryAndWindow('acme/api', '7d')}.`).toBe('No sessions in acme/api in the last 7 days.');
    expect(`No sessions${inRepositoryAndWindow('acme/api', 'all')}.`).toBe('No sessions in acme/api.');
    expect(`No sessions${inRepositoryAndWindow('', '24h')}.`).toBe('No sessions in No workspace in the last 24 hours.');
    expect(`No model calls${inRepositoryAndWindow(undefined, '30d')}.`).toBe('No model calls in the last 30 days.');
    expect(inRepositoryAndWindow(undefined, 'all')).toBe('');
  });
});
