// The per-event-type fixtures (server/test-support/cli-events/, one file per INTEROP §3 type, written as the CLI
// writes them) indexed as one session with bad-lines.jsonl at its end: every line that passes the envelope rule
// is an event, every other complete line a bad line, the cut last line waits; each type lands where
// normalize-cli.ts says.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeCliSessionTree } from '../../test-support/cli-session-tree';
import { fixtureDb, type FixtureDb } from '../../test-support/fixture-db';
import { isCliEnvelope } from './normalize-cli';

const ID = '7a7a7a7a-0000-4000-8000-00000000000a';
let fx: FixtureDb;
let file: string;
beforeAll(async () => {
  fx = await fixtureDb({}, { cli: {} });
  [file] = writeCliSessionTree(path.join(fx.root, '.copilot'), [{ id: ID, badLines: true }]);
  await fx.reindex();
});
afterAll(() => fx.cleanup());

it('events are the envelope-valid complete lines, bad lines the others; every type is mapped', () => {
  const text = fs.readFileSync(file, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n')).split('\n');
  const valid = complete.filter((l) => {
    try {
      return isCliEnvelope(JSON.parse(l) as Record<string, unknown>);
    } catch {
      return false;
    }
  });
  const row = fx.db.prepare('SELECT events, bad_lines FROM files WHERE session_id = ?').get(ID);
  expect(row).toEqual({ events: valid.length, bad_lines: complete.length - valid.length });
  const types = Object.fromEntries(
    (fx.db.prepare('SELECT type, count(*) n FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = ? GROUP BY type').all(ID) as { type: string; n: number }[]).map((r) => [r.type, r.n]),
  );
  const rawTypes: Record<string, number> = {};
  for (const l of valid) {
    const t = (JSON.parse(l) as { type: string }).type;
    rawTypes[t] = (rawTypes[t] ?? 0) + 1;
  }
  const n = (t: string) => rawTypes[t] ?? 0;
  expect(types).toEqual({
    session_start: n('session.start'),
    user_message: n('user.message'),
    turn_start: n('assistant.turn_start'),
    turn_end: n('assistant.turn_end'),
    llm_request: n('assistant.message'),
    'tool.execution_start': n('tool.execution_start'),
    tool_call: n('tool.execution_complete'),
    'subagent.started': n('subagent.started'),
    subagent: n('subagent.completed') + n('subagent.failed'),
    'hook.start': n('hook.start'),
    hook: n('hook.end'),
    error: n('session.error'),
    'session.shutdown': n('session.shutdown'),
    generic: n('session.resume') + n('session.compaction_start') + n('session.compaction_complete') + n('session.model_change') + n('session.usage_checkpoint'),
  });
});
