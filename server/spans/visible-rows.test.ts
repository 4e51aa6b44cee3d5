import { describe, expect, it } from 'vitest';
import { allNodes, buildSpanTree, type SpanEntry, type SpanTree } from './span-tree';
import { collapsedSet, openAncestors, visibleRows } from './visible-rows';

let nextId = 1;
const e = (sessionId: string, name: string, spanId: string, parentSpanId: string | null, more: Partial<SpanEntry> = {}): SpanEntry => ({
  id: nextId++,
  sessionId,
  type: 'tool_call',
  name,
  spanId,
  parentSpanId,
  status: 0,
  ts: nextId,
  dur: 0,
  model: null,
  tool: null,
  ttft: null,
  tokensIn: null,
  tokensOut: null,
  dup: 0,
  ...more,
});

// The tree every test here starts from:
//   request                 (user_message R)
//     chat                  (llm_request)
//     runSubagent           (tool Y)
//       Explore             (subagent S, child session C: folded by default)
//         read_file
//         grep_search       (failed)
//     edit_file
//   later                   (user_message R2)
//     chat2
function sample(): SpanTree {
  nextId = 1;
  return buildSpanTree(
    [
      e('P', 'request', 'R', null, { type: 'user_message' }),
      e('P', 'chat', 'C1', 'R', { type: 'llm_request', model: 'gpt-4.1', dur: 900 }),
      e('P', 'runSubagent', 'Y', 'R', { tool: 'runSubagent', dur: 5000 }),
      e('C', 'Explore', 'S', 'Y', { type: 'subagent', tool: 'Explore' }),
      e('C', 'read_file', 'T1', 'S', { tool: 'read_file' }),
      e('C', 'grep_search', 'T2', 'S', { tool: 'grep_search', status: 1 }),
      e('P', 'edit_file', 'T3', 'R', { tool: 'edit_file' }),
      e('P', 'later', 'R2', null, { type: 'user_message' }),
      e('P', 'chat2', 'C2', 'R2', { type: 'llm_request', model: 'gpt-4o' }),
    ],
    { rootSessionId: 'P' },
  );
}

const names = (tree: SpanTree, rows: Int32Array) => Array.from(rows, (i) => allNodes(tree)[i].entry.name);
const idOf = (tree: SpanTree, name: string) => allNodes(tree).find((n) => n.entry.name === name)!.entry.id;

describe('visibleRows', () => {
  it('shows everything when nothing is folded', () => {
    const tree = sample();
    expect(names(tree, visibleRows(tree, new Set()).rows)).toEqual(['request', 'chat', 'runSubagent', 'Explore', 'read_file', 'grep_search', 'edit_file', 'later', 'chat2']);
  });

  it('skips a folded subtree whole but keeps the folded node', () => {
    const tree = sample();
    const rows = visibleRows(tree, new Set([idOf(tree, 'runSubagent')])).rows;
    expect(names(tree, rows)).toEqual(['request', 'chat', 'runSubagent', 'edit_file', 'later', 'chat2']);
  });

  it('keeps the ancestors of every match, and says which rows matched', () => {
    const tree = sample();
    const v = visibleRows(tree, new Set(), (t, i) => t.status(i) === 1);
    // request
    //   runSubagent
    //     Explore
    //       grep_search   ← the match
    expect(names(tree, v.rows)).toEqual(['request', 'runSubagent', 'Explore', 'grep_search']);
    expect(v.matched).toBe(1);
    expect(Array.from(v.rows, (i) => v.match![i])).toEqual([0, 0, 0, 1]);
  });

  it('still folds under a filter: a folded ancestor hides its matches', () => {
    const tree = sample();
    const v = visibleRows(tree, new Set([idOf(tree, 'Explore')]), (t, i) => t.entry(i).tool === "read_file" || t.entry(i).name === "chat2");
    expect(names(tree, v.rows)).toEqual(['request', 'runSubagent', 'Explore', 'later', 'chat2']);
    expect(v.matched).toBe(2);
  });

  it('shows nothing when nothing matches', () => {
    const tree = sample();
    const v = visibleRows(tree, new Set(), () => false);
    expect(v.rows.length).toBe(0);
    expect(v.matched).toBe(0);
  });
});

describe('collapsedSet and openAncestors', () => {
  it('folds child-session branches by default; toggled ids flip the default', () => {
    const tree = sample();
    const explore = idOf(tree, 'Explore');
    const chat = idOf(tree, 'chat');
    expect([...collapsedSet(tree, 'default')]).toEqual([explore]);
    expect([...collapsedSet(tree, 'default', [explore, chat])]).toEqual([chat]);
    expect([...collapsedSet(tree, 'none')]).toEqual([]);
    expect([...collapsedSet(tree, 'none', [chat])]).toEqual([chat]);
    // Collapse all: every branch folded, the top-level rows alone visible; toggled ids are opened again
    const all = collapsedSet(tree, 'all');
    expect([...all].sort()).toEqual(allNodes(tree).filter((n) => n.childCount > 0).map((n) => n.entry.id).sort());
    const top = allNodes(tree).flatMap((n, i) => (n.parent === -1 ? [i] : []));
    expect(Array.from(visibleRows(tree, all, null).rows)).toEqual(top);
    const branch = allNodes(tree).find((n) => n.childCount > 0)!.entry.id;
    expect(collapsedSet(tree, 'all', [branch]).has(branch)).toBe(false);
    // Filtering lifts the default folds; the user's own folds stay.
    expect([...collapsedSet(tree, 'default', [chat], true)]).toEqual([chat]);
    expect([...collapsedSet(tree, 'default', [explore], true)]).toEqual([]);
  });

  it('opens the folded ancestors of a node and names them', () => {
    const tree = sample();
    const collapsed = collapsedSet(tree, 'default', [idOf(tree, 'request')]);
    const grep = tree.indexOf(idOf(tree, 'grep_search'))!;
    const opened = openAncestors(tree, grep, collapsed);
    expect(opened.sort()).toEqual([idOf(tree, 'request'), idOf(tree, 'Explore')].sort());
    expect(collapsed.size).toBe(0);
    expect(names(tree, visibleRows(tree, collapsed).rows)).toContain('grep_search');
  });

  it('walks 100,000 nodes in linear time', () => {
    const entries: SpanEntry[] = [];
    nextId = 1;
    for (let r = 0; r < 1000; r++) {
      entries.push(e('P', `req${r}`, `R${r}`, null, { type: 'user_message', ts: r * 1000 }));
      for (let k = 0; k < 99; k++) entries.push(e('P', `t${k}`, `T${r}-${k}`, k % 10 === 0 ? `R${r}` : `T${r}-${k - (k % 10)}`, { ts: r * 1000 + k, status: k === 50 ? 1 : 0 }));
    }
    const tree = buildSpanTree(entries, { rootSessionId: 'P' });
    const started = performance.now();
    const v = visibleRows(tree, new Set(), (t, i) => t.status(i) === 1);
    const plain = visibleRows(tree, new Set());
    const ms = performance.now() - started;
    expect(plain.rows.length).toBe(100_000);
    expect(v.matched).toBe(1000);
    // A few ms on an idle machine; the bound only catches a quadratic pass (minutes) on busy shared cores.
    expect(ms).toBeLessThan(2000);
  });
});
