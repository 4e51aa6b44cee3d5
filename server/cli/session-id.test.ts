import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { denyAccess } from '../test-support/deny-access';
import { runCliCaptured } from '../test-support/run-cli-captured';

// A session named on the command line: its whole id, or a prefix of it that names one session (git's rule), for
// every command that takes one. The lists show the first 8 characters; `trace` took a prefix and `export` did not.
const A = 'a1b2c3d4-1111-4111-8111-111111111111';
const B = 'a1b2c3d4-2222-4222-8222-222222222222';
const C = 'c9d8e7f6-3333-4333-8333-333333333333';
const log = (sid: string, text: string) =>
  line({ ts: 1_775_000_000_000, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: {} }) +
  line({ ts: 1_775_000_000_010, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000002', status: 'ok', attrs: { content: text } });

let fx: FixtureDb;
let tmp: string;
beforeAll(async () => {
  fx = await fixtureDb({ [`${A}/main.jsonl`]: log(A, 'first'), [`${B}/main.jsonl`]: log(B, 'second'), [`${C}/main.jsonl`]: log(C, 'third') });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-session-id-'));
});
afterAll(() => {
  fx.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCliCaptured([...args, '--db', fx.dbPath, '--no-index']);

describe('a session id on the command line', () => {
  it('export takes a unique prefix, as trace does', async () => {
    const md = await cli('export', 'c9d8e7f6', '--format', 'md');
    expect(md.code).toBe(0);
    expect(md.out).toContain(`Session \`${C}\``);
    expect((await cli('trace', 'c9d8')).out).toContain(C);
  });

  it('a prefix of several sessions, or of none: exit 2 saying so, the same words for both commands', async () => {
    for (const cmd of ['export', 'trace']) {
      expect(await cli(cmd, 'a1b2c3d4')).toMatchObject({ code: 2, err: `chronoscope ${cmd}: a1b2c3d4 names more than one session (${A}, ${B}…): give more of the id\n` });
      expect(await cli(cmd, 'ffff')).toMatchObject({ code: 2, err: `chronoscope ${cmd}: no session ffff in the index: check the id (\`chronoscope search\` finds sessions)\n` });
    }
  });

  it('export -o where no file can be written: exit 2 naming the file and why', async () => {
    const missing = path.join(tmp, 'no-such-folder', 'x.md');
    expect(await cli('export', C, '--format', 'md', '-o', missing)).toMatchObject({ code: 2, err: `chronoscope export: cannot write ${missing}: ${path.dirname(missing)} does not exist\n` });
    expect(await cli('export', C, '-o', tmp)).toMatchObject({ code: 2, err: `chronoscope export: cannot write ${tmp}: it is a folder\n` });
  });

  // A refused write said "… is not readable (permission denied)": fsProblem's words for a read.
  it('export -o where writing is refused says so, not that the file is unreadable', async () => {
    const locked = path.join(tmp, 'locked.md');
    denyAccess('openSync', locked);
    try {
      expect(await cli('export', C, '--format', 'md', '-o', locked)).toMatchObject({ code: 2, err: `chronoscope export: cannot write ${locked}: permission denied\n` });
    } finally {
      vi.restoreAllMocks();
    }
  });
});
