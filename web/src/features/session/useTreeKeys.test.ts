import { describe, expect, it, vi } from 'vitest';
import type { SpanRow } from '../../../../shared/api';
import { runTreeKey, type TreeKeyContext } from './useTreeKeys';

const row = (index: number, depth: number, more: Partial<SpanRow> = {}): SpanRow => ({
  id: 100 + index,
  index,
  type: 'tool_call',
  name: `r${index}`,
  status: 'ok',
  start: index,
  duration: 0,
  subtreeEnd: index,
  depth,
  childCount: 0,
  descendants: 0,
  collapsed: false,
  sessionId: 's',
  model: null,
  tool: null,
  ttft: null,
  tokensIn: null,
  tokensOut: null,
  label: '',
  replay: false,
  orphan: false,
  inferredParent: false,
  match: true,
  ...more,
});

// 0 request (open)
// 1   chat
// 2   runSubagent (folded)
// 3   read_file
// 4 (window not fetched yet)
const rows = [row(0, 0, { childCount: 3, descendants: 5 }), row(1, 1), row(2, 1, { childCount: 2, descendants: 2, collapsed: true }), row(3, 1)];

function ctx(selectedIndex: number | null) {
  return {
    total: 5,
    getRow: (i: number) => rows[i],
    selectedIndex,
    hasSelection: selectedIndex !== null,
    onScreen: { start: 0, end: 4 },
    select: vi.fn<TreeKeyContext['select']>(),
    toggle: vi.fn<TreeKeyContext['toggle']>(),
    setPaneOpen: vi.fn<TreeKeyContext['setPaneOpen']>(),
    seekError: vi.fn<TreeKeyContext['seekError']>(),
    expandAll: vi.fn<TreeKeyContext['expandAll']>(),
    collapseAll: vi.fn<TreeKeyContext['collapseAll']>(),
    focusFilter: vi.fn<TreeKeyContext['focusFilter']>(),
  } satisfies TreeKeyContext;
}

describe('runTreeKey', () => {
  it('moves down and up, clamped, starting on screen when nothing is selected', () => {
    const c = ctx(null);
    runTreeKey({ type: 'move', by: 1 }, c);
    expect(c.select).toHaveBeenCalledWith(rows[0], 0);
    const d = ctx(1);
    runTreeKey({ type: 'move', by: -5 }, d);
    expect(d.select).toHaveBeenCalledWith(rows[0], 0);
  });

  it('does not move onto a row whose window has not arrived', () => {
    const c = ctx(3);
    expect(runTreeKey({ type: 'move', by: 1 }, c)).toBe(false);
    expect(c.select).not.toHaveBeenCalled();
  });

  it('← folds an open node, else goes to the parent; → unfolds, else goes to the first child', () => {
    const open = ctx(0);
    runTreeKey({ type: 'fold' }, open);
    expect(open.toggle).toHaveBeenCalledWith(rows[0]);
    const leaf = ctx(3);
    runTreeKey({ type: 'fold' }, leaf);
    expect(leaf.select).toHaveBeenCalledWith(rows[0], 0);
    const folded = ctx(2);
    runTreeKey({ type: 'unfold' }, folded);
    expect(folded.toggle).toHaveBeenCalledWith(rows[2]);
    const parent = ctx(0);
    runTreeKey({ type: 'unfold' }, parent);
    expect(parent.select).toHaveBeenCalledWith(rows[1], 1);
  });

  it('Enter opens the details only with a selection; the rest are passed on', () => {
    expect(runTreeKey({ type: 'open' }, ctx(null))).toBe(false);
    const c = ctx(1);
    runTreeKey({ type: 'open' }, c);
    expect(c.setPaneOpen).toHaveBeenCalledWith(true);
    runTreeKey({ type: 'seek-error', dir: 'next' }, c);
    expect(c.seekError).toHaveBeenCalledWith('next');
    runTreeKey({ type: 'expand-all' }, c);
    expect(c.expandAll).toHaveBeenCalled();
    runTreeKey({ type: 'collapse-all' }, c);
    expect(c.collapseAll).toHaveBeenCalledTimes(1);
  });
});
