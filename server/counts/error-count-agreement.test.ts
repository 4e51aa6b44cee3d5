// One number everywhere, for errors: a session's error count is its own log's failed events and its child logs'
// (SessionErrorCount, shared/counts.ts), as its event count is. The sessions list and the header's summary said
// the session's own (17 on a session of the bench archive) while the header's Errors chip, from the span tree,
// said the family's (18): one page showed two figures for one session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { getSessionDetail } from '../sessions/session-detail';
import { listSessions } from '../sessions/list-sessions';
import { spanOverview } from '../spans/list-spans';

const T = Date.UTC(2026, 10, 20);
const ROOT = 'aaaaaaaa-1111-4111-8111-111111111111';
const CHILD = 'bbbbbbbb-2222-4222-8222-222222222222';
const GRANDCHILD = 'cccccccc-3333-4333-8333-333333333333';
const QUIET = 'dddddddd-4444-4444-8444-444444444444';

/** Span ids as the writer gives them: a counter that starts again at 0000000000000001 in every session (FORMAT §10). */
const call = (sid: string, n: number, status: 'ok' | 'error', extra: object = {}) =>
  line({ ts: T + n * 1000, dur: 5, sid, type: 'tool_call', name: 'read_file', spanId: n.toString(16).padStart(16, '0'), status, attrs: { args: '{}', result: status, ...extra } });
const childRef = (sid: string, n: number, child: string, label: string) =>
  line({ ts: T + n * 1000, dur: 0, sid, type: 'child_session_ref', name: label, spanId: n.toString(16).padStart(16, '0'), status: 'ok', attrs: { childSessionId: child, childLogFile: `${label}-${child}.jsonl`, label } });
const start = (sid: string, parent: string, label: string) =>
  line({ v: 1, ts: T, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: { parentSessionId: parent, label } });

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({
    // the root: 2 failed calls of 4, a subagent with 1 failed call of its own and a title child of the subagent with 1
    [`${ROOT}/main.jsonl`]: call(ROOT, 1, 'error') + call(ROOT, 2, 'ok') + call(ROOT, 3, 'error') + childRef(ROOT, 4, CHILD, 'runSubagent-Explore') + call(ROOT, 5, 'ok'),
    [`${ROOT}/runSubagent-Explore-${CHILD}.jsonl`]: start(CHILD, ROOT, 'runSubagent-Explore') + call(CHILD, 2, 'error') + call(CHILD, 3, 'ok') + childRef(CHILD, 4, GRANDCHILD, 'title'),
    [`${ROOT}/title-${GRANDCHILD}.jsonl`]: start(GRANDCHILD, CHILD, 'title') + call(GRANDCHILD, 2, 'error'),
    [`${QUIET}/main.jsonl`]: call(QUIET, 1, 'ok'),
  });
});
afterAll(() => fx.cleanup());

describe("a session's error count is one number", () => {
  it('the sessions list, the header, its list of children and the span tree all count the family', () => {
    const listed = Object.fromEntries(listSessions(fx.db, { window: 'all', children: '0', limit: 100 }).sessions.map((s) => [s.id, s.errorCount]));
    const detail = getSessionDetail(fx.db, ROOT)!;
    expect({
      list: listed[ROOT],
      header: detail.errorCount,
      tree: spanOverview(fx.db, ROOT).stats.errors,
      child: detail.children.map((c) => [c.id, c.errorCount]),
      childHeader: getSessionDetail(fx.db, CHILD)!.errorCount,
      childTree: spanOverview(fx.db, CHILD).stats.errors,
      quiet: listed[QUIET],
    }).toEqual({ list: 4, header: 4, tree: 4, child: [[CHILD, 2]], childHeader: 2, childTree: 2, quiet: 0 });
  });

  it('the list sorted by errors orders by that figure', () => {
    const sorted = listSessions(fx.db, { window: 'all', children: '1', limit: 100, sort: 'errors', dir: 'desc' }).sessions.map((s) => [s.id, s.errorCount]);
    expect(sorted).toEqual([
      [ROOT, 4],
      [CHILD, 2],
      [GRANDCHILD, 1],
      [QUIET, 0],
    ]);
  });
});
