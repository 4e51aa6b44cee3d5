import { describe, expect, it } from 'vitest';
import { allNodes, buildSpanTree, turnAgentSpan, type SpanEntry, type SpanTree } from './span-tree';

/** Entries in file order (ids ascend like line ids); only what a test cares about is given. */
function entries(sessionId: string, ...list: Partial<SpanEntry>[]): SpanEntry[] {
  return list.map((e) => ({
    id: 0,
    sessionId,
    type: 'generic',
    name: e.type ?? 'generic',
    spanId: null,
    parentSpanId: null,
    status: 0,
    ts: 0,
    dur: 0,
    model: null,
    tool: null,
    ttft: null,
    tokensIn: null,
    tokensOut: null,
    dup: 0,
    ...e,
  }));
}

/** Numbers the entries in the order given: the order lines were appended. */
function lines(...groups: SpanEntry[][]): SpanEntry[] {
  return groups.flat().map((e, i) => ({ ...e, id: i + 1 }));
}

/** The tree drawn: two spaces per level, `name` then `*` for an orphan. */
function draw(tree: SpanTree): string {
  return allNodes(tree).map((n) => `${'  '.repeat(n.depth)}${n.entry.name}${n.orphan ? ' *' : ''}`).join('\n');
}

describe('buildSpanTree: one request of a main log', () => {
  // Lines as written: user_message in real time, then each span when it *ends* (ts = its start), so the
  // turn_end and the tool call come before nothing in particular. Turn events carry the agent's *parent*
  // (none here) as parentSpanId; they are linked by the agent span id inside their spanId.
  const tree = buildSpanTree(
    lines(
      entries(
        'P',
        { type: 'session_start', name: 'session_start', spanId: 'session-start-P', ts: 900 },
        { type: 'user_message', name: 'user_message', spanId: 'R', ts: 1000 },
        { type: 'turn_start', name: 'turn_start:0', spanId: 'turn_start-R-0', ts: 1010 },
        { type: 'llm_request', name: 'chat:gpt-4.1', spanId: 'C1', parentSpanId: 'R', ts: 1100, dur: 4000 },
        { type: 'agent_response', name: 'agent_response', spanId: 'agent-msg-C1', parentSpanId: 'R', ts: 5100 },
        { type: 'hook', name: 'PreToolUse', spanId: 'H1', parentSpanId: 'R', ts: 5150, dur: 5 },
        { type: 'tool_call', name: 'read_file', spanId: 'T1', parentSpanId: 'R', ts: 5160, dur: 40 },
        { type: 'turn_end', name: 'turn_end:0', spanId: 'turn_end-R-0', ts: 5300 },
      ),
    ),
    { rootSessionId: 'P' },
  );

  it('puts the request under its user_message and everything in start order', () => {
    expect(draw(tree)).toBe(
      [
        'session_start',
        'user_message',
        '  turn_start:0',
        '  chat:gpt-4.1',
        '  agent_response',
        '  PreToolUse',
        '  read_file',
        '  turn_end:0',
      ].join('\n'),
    );
  });

  it('counts sizes, children and the end of the work under each node', () => {
    const request = allNodes(tree)[1];
    expect(request.childCount).toBe(6);
    expect(request.size).toBe(6);
    expect(request.subtreeEnd).toBe(5300);
    expect(tree.stats).toMatchObject({ events: 8, roots: 2, orphans: 0, maxDepth: 1 });
  });
});

describe('buildSpanTree: a subagent across files', () => {
  // main.jsonl (P): the runSubagent tool call Y is written when it finishes, after the child's lines;
  // the child_session_ref names Y. runSubagent-Explore-C.jsonl (C): session_start, the subagent's
  // user_message (on span S, parent Y), its model call and tool under S, and last the subagent span S itself.
  //
  //   user_message                  (P)
  //     chat:gpt-4.1                (P)
  //     runSubagent                 (P, Y)
  //       runSubagent-Explore       (P, child_session_ref → Y)
  //       session_start             (C, anchored under Y)
  //       Explore                   (C, subagent S → Y)
  //         user_message            (C, on span S)
  //         chat:gpt-4o-mini        (C → S)
  //         grep_search             (C → S)
  //         PostToolUse             (C → S, hook routed to the child)
  const tree = buildSpanTree(
    lines(
      entries(
        'P',
        { type: 'user_message', name: 'user_message', spanId: 'R', ts: 1000 },
        { type: 'llm_request', name: 'chat:gpt-4.1', spanId: 'C1', parentSpanId: 'R', ts: 1100, dur: 900 },
        { type: 'child_session_ref', name: 'runSubagent-Explore', spanId: 'child-ref-C', parentSpanId: 'Y', ts: 2050 },
      ),
      entries(
        'C',
        { type: 'session_start', name: 'session_start', spanId: 'session-start-C', ts: 2050 },
        { type: 'user_message', name: 'user_message', spanId: 'S', parentSpanId: 'Y', ts: 2060 },
        { type: 'llm_request', name: 'chat:gpt-4o-mini', spanId: 'C2', parentSpanId: 'S', ts: 2100, dur: 500 },
        { type: 'tool_call', name: 'grep_search', spanId: 'T2', parentSpanId: 'S', ts: 2700, dur: 50 },
        { type: 'hook', name: 'PostToolUse', spanId: 'H2', parentSpanId: 'S', ts: 2760, dur: 3 },
        { type: 'subagent', name: 'Explore', spanId: 'S', parentSpanId: 'Y', ts: 2055, dur: 800 },
      ),
      entries('P', { type: 'tool_call', name: 'runSubagent', spanId: 'Y', parentSpanId: 'R', ts: 2000, dur: 900 }),
    ),
    { rootSessionId: 'P' },
  );

  it('links parentSpanId across files and holds the subagent under its tool call', () => {
    expect(draw(tree)).toBe(
      [
        'user_message',
        '  chat:gpt-4.1',
        '  runSubagent',
        '    runSubagent-Explore',
        '    session_start',
        '    Explore',
        '      user_message',
        '      chat:gpt-4o-mini',
        '      grep_search',
        '      PostToolUse',
      ].join('\n'),
    );
    expect(tree.stats).toMatchObject({ events: 10, roots: 1, orphans: 0, sessions: 2 });
  });

  it('marks the child branch entry points (for folding by default)', () => {
    const branches = allNodes(tree).filter((n) => n.childBranch).map((n) => n.entry.name);
    expect(branches).toEqual(['session_start', 'Explore']);
  });

  it('opened on its own, a subagent has its entry points as roots, not orphans', () => {
    // The child C alone: its subagent span S names the tool span Y, which lives in the parent's file.
    //   session_start
    //   Explore
    //     user_message
    //     grep_search
    const child = lines(
      entries(
        'C',
        { type: 'session_start', name: 'session_start', spanId: 'session-start-C', ts: 1 },
        { type: 'user_message', name: 'user_message', spanId: 'S', parentSpanId: 'Y', ts: 3 },
        { type: 'tool_call', name: 'grep_search', spanId: 'T', parentSpanId: 'S', ts: 4 },
        { type: 'subagent', name: 'Explore', spanId: 'S', parentSpanId: 'Y', ts: 2 },
      ),
    );
    const tree = buildSpanTree(child, { rootSessionId: 'C', rootIsChild: true });
    expect(draw(tree)).toBe(['session_start', 'Explore', '  user_message', '  grep_search'].join('\n'));
    expect(tree.stats.orphans).toBe(0);
    expect(buildSpanTree(child, { rootSessionId: 'C' }).stats.orphans).toBe(1);
  });

  it('opened on its own, a title child is its session_start with the model call under it', () => {
    //   session_start
    //     chat:gpt-4o-mini     (parent: the title request's agent span, never written)
    const title = lines(
      entries(
        'T',
        { type: 'session_start', name: 'session_start', spanId: 'session-start-T', ts: 1 },
        { type: 'llm_request', name: 'chat:gpt-4o-mini', spanId: 'CT', parentSpanId: 'AT', ts: 2 },
      ),
    );
    const tree = buildSpanTree(title, { rootSessionId: 'T', rootIsChild: true });
    expect(draw(tree)).toBe(['session_start', '  chat:gpt-4o-mini'].join('\n'));
    expect(tree.stats.orphans).toBe(0);
  });

  it('anchors a child log under its tool span from sessions.parent_span_id when the ref is missing (LMAR)', () => {
    const withoutRef = buildSpanTree(
      lines(
        entries('P', { type: 'user_message', name: 'user_message', spanId: 'R', ts: 1 }, { type: 'tool_call', name: 'runSubagent', spanId: 'Y', parentSpanId: 'R', ts: 2 }),
        entries('C', { type: 'session_start', name: 'session_start', spanId: 'session-start-C', ts: 3 }, { type: 'generic', name: 'Loose', ts: 4 }),
      ),
      { rootSessionId: 'P', childLinks: new Map([['C', 'Y']]) },
    );
    expect(draw(withoutRef)).toBe(['user_message', '  runSubagent', '    session_start', '      Loose'].join('\n'));
  });
});

describe('buildSpanTree: housekeeping children and orphans', () => {
  it('shows a title child as its own small branch under its session_start', () => {
    // title-T.jsonl: the model call's parent is the title request's invoke_agent span, never written.
    //   session_start (T)
    //     chat:gpt-4o-mini
    //     agent_response
    const tree = buildSpanTree(
      lines(
        entries('P', { type: 'user_message', name: 'user_message', spanId: 'R', ts: 1000 }),
        entries(
          'T',
          { type: 'session_start', name: 'session_start', spanId: 'session-start-T', ts: 1001 },
          { type: 'llm_request', name: 'chat:gpt-4o-mini', spanId: 'CT', parentSpanId: 'AT', ts: 1002, dur: 300 },
          { type: 'agent_response', name: 'agent_response', spanId: 'agent-msg-CT', parentSpanId: 'AT', ts: 1302 },
        ),
      ),
      { rootSessionId: 'P' },
    );
    expect(draw(tree)).toBe(['user_message', 'session_start', '  chat:gpt-4o-mini', '  agent_response'].join('\n'));
    expect(tree.stats.orphans).toBe(0);
  });

  it('makes an entry whose parent is missing a root, counted, never dropped', () => {
    // The parent span N was evicted from the logger's map, or lives in a file that was cut (FORMAT §3.5).
    //   user_message
    //     chat:a
    //   read_file *      (parentSpanId N: nowhere)
    //   chat:b *         (parentSpanId N)
    const tree = buildSpanTree(
      lines(
        entries(
          'P',
          { type: 'user_message', name: 'user_message', spanId: 'R', ts: 10 },
          { type: 'llm_request', name: 'chat:a', spanId: 'A', parentSpanId: 'R', ts: 11 },
          { type: 'tool_call', name: 'read_file', spanId: 'X', parentSpanId: 'N', ts: 20 },
          { type: 'llm_request', name: 'chat:b', spanId: 'B', parentSpanId: 'N', ts: 30 },
        ),
      ),
      { rootSessionId: 'P' },
    );
    expect(draw(tree)).toBe(['user_message', '  chat:a', 'read_file *', 'chat:b *'].join('\n'));
    expect(tree.stats).toMatchObject({ events: 4, roots: 3, orphans: 2 });
  });

  it('breaks a parent cycle at its earliest entry instead of losing both', () => {
    //   a *
    //     b
    const tree = buildSpanTree(
      lines(
        entries(
          'P',
          { type: 'tool_call', name: 'a', spanId: 'A', parentSpanId: 'B', ts: 1 },
          { type: 'tool_call', name: 'b', spanId: 'B', parentSpanId: 'A', ts: 2 },
        ),
      ),
      { rootSessionId: 'P' },
    );
    expect(draw(tree)).toBe(['a *', '  b'].join('\n'));
    expect(tree.stats.events).toBe(2);
  });
});

describe('buildSpanTree: duplicates, order and missing pieces', () => {
  it('hides repeats in the same file (dup 2) and shows replays from other sessions (dup 1)', () => {
    //   Load Instructions          (replayed core event, older ts than session_start: FORMAT §4.4)
    //   session_start
    //   user_message
    //     chat:x
    // The second copy of the user_message in the same file (dup 2) is not in the tree.
    const tree = buildSpanTree(
      lines(
        entries(
          'P',
          { type: 'session_start', name: 'session_start', spanId: 'session-start-P', ts: 500 },
          { type: 'discovery', name: 'Load Instructions', spanId: 'core-1', ts: 100, dup: 1 },
          { type: 'user_message', name: 'user_message', spanId: 'R', ts: 1000 },
          { type: 'user_message', name: 'user_message', spanId: 'R', ts: 1000, dup: 2 },
          { type: 'llm_request', name: 'chat:x', spanId: 'C', parentSpanId: 'R', ts: 1001 },
        ),
      ),
      { rootSessionId: 'P' },
    );
    expect(draw(tree)).toBe(['Load Instructions', 'session_start', 'user_message', '  chat:x'].join('\n'));
    expect(tree.stats).toMatchObject({ events: 4, hiddenRepeats: 1, replays: 1 });
  });

  it('sorts by start whatever the line order, untimed entries last', () => {
    // Written: tool (ts 300), chat (ts 100), generic without ts, response (ts 200).
    //   user_message
    //     chat
    //     agent_response
    //     tool
    //     untimed
    const tree = buildSpanTree(
      lines(
        entries(
          'P',
          { type: 'tool_call', name: 'tool', spanId: 'T', parentSpanId: 'R', ts: 300 },
          { type: 'llm_request', name: 'chat', spanId: 'C', parentSpanId: 'R', ts: 100 },
          { type: 'generic', name: 'untimed', spanId: 'G', parentSpanId: 'R', ts: null },
          { type: 'agent_response', name: 'agent_response', spanId: 'agent-msg-C', parentSpanId: 'R', ts: 200 },
          { type: 'user_message', name: 'user_message', spanId: 'R', ts: 50 },
        ),
      ),
      { rootSessionId: 'P' },
    );
    expect(draw(tree)).toBe(['user_message', '  chat', '  agent_response', '  tool', '  untimed'].join('\n'));
  });

  it('keeps an iteration whose turn_end is missing (the iteration threw), and a response without its parent beside its model call', () => {
    // Iteration 1 failed: no agent_response, no turn_end (FORMAT §3.2). A response whose parentSpanId is
    // missing (third-party writer) goes beside the chat span named in `agent-msg-<chat>`.
    //   user_message
    //     turn_start:0
    //     chat:0
    //     agent_response
    //     turn_end:0
    //     turn_start:1
    //     chat:1
    const tree = buildSpanTree(
      lines(
        entries(
          'P',
          { type: 'user_message', name: 'user_message', spanId: 'R', ts: 1 },
          { type: 'turn_start', name: 'turn_start:0', spanId: 'turn_start-R-0', ts: 2 },
          { type: 'llm_request', name: 'chat:0', spanId: 'C0', parentSpanId: 'R', ts: 3 },
          { type: 'agent_response', name: 'agent_response', spanId: 'agent-msg-C0', ts: 4 },
          { type: 'turn_end', name: 'turn_end:0', spanId: 'turn_end-R-0', ts: 5 },
          { type: 'turn_start', name: 'turn_start:1', spanId: 'turn_start-R-1', ts: 6 },
          { type: 'llm_request', name: 'chat:1', spanId: 'C1', parentSpanId: 'R', ts: 7, status: 1 },
        ),
      ),
      { rootSessionId: 'P' },
    );
    expect(draw(tree)).toBe(['user_message', '  turn_start:0', '  chat:0', '  agent_response', '  turn_end:0', '  turn_start:1', '  chat:1'].join('\n'));
    expect(tree.stats).toMatchObject({ errors: 1, orphans: 0 });
  });

  it('puts every entry in the tree exactly once', () => {
    const many: Partial<SpanEntry>[] = [{ type: 'user_message', name: 'user_message', spanId: 'R', ts: 0 }];
    for (let i = 0; i < 500; i++) many.push({ type: 'tool_call', name: `t${i}`, spanId: `T${i}`, parentSpanId: i % 7 === 0 ? 'gone' : i % 3 === 0 ? 'R' : `T${i - 1}`, ts: (i * 37) % 101 });
    const tree = buildSpanTree(lines(entries('P', ...many)), { rootSessionId: 'P' });
    const ids = allNodes(tree).map((n) => n.entry.id);
    expect(new Set(ids).size).toBe(501);
    expect(ids.length).toBe(501);
    for (let i = 0; i < allNodes(tree).length; i++) {
      const n = allNodes(tree)[i];
      if (n.parent >= 0) expect(allNodes(tree)[n.parent].depth).toBe(n.depth - 1);
      expect(i + n.size).toBeLessThan(allNodes(tree).length);
    }
  });
});

describe('turnAgentSpan', () => {
  it('reads the agent span id out of a turn event id', () => {
    expect(turnAgentSpan('turn_start-a1b2c3d4e5f60718-0')).toBe('a1b2c3d4e5f60718');
    expect(turnAgentSpan('turn_end-with-dashes-12')).toBe('with-dashes');
    expect(turnAgentSpan('core-17')).toBeNull();
    expect(turnAgentSpan(null)).toBeNull();
  });
});
