import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable } from '../cli/sql';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { terminalSafe, terminalSafeJson } from './terminal-text';

const run = promisify(execFile);
const repo = path.resolve(__dirname, '..', '..');

// `chronoscope sql` as a user runs it: the CLI from source, on a fixture whose prompt carries terminal escapes.
const HOSTILE = 'red \u001b[31mALERT\u001b[0m \u001b]0;pwned\u0007 \u202Eevil\u202C done';
let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({
    'cli-s1/main.jsonl':
      line({ v: 1, ts: 1_775_000_000_000, dur: 0, sid: 'cli-s1', type: 'session_start', name: 'session_start', spanId: 'session-start-cli-s1', status: 'ok', attrs: {} }) +
      line({ ts: 1_775_000_000_010, dur: 0, sid: 'cli-s1', type: 'user_message', name: 'user_message', spanId: 'cli0000000000a1', status: 'ok', attrs: { content: HOSTILE } }),
  });
});
afterAll(() => fx.cleanup());

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'server/main.ts', 'sql', ...args, '--logs', path.join(fx.root, 'Code'), '--db', fx.dbPath], { cwd: repo, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('chronoscope sql', () => {
  it('prints an aligned table with escaped log text, and --json for scripts', async () => {
    const table = await cli('SELECT session_id, user_message FROM turns');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('cli-s1');
    expect(table.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(table.stdout).toContain('\\u{001b}[31mALERT');
    expect(table.stdout).toMatch(/1 row, [\d.]+ ms/);
    const json = await cli('SELECT', 'user_message', 'FROM', 'turns', '--json');
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(JSON.parse(json.stdout).rows[0][0]).toBe(HOSTILE);
  }, 90_000);

  it('refuses a write with exit code 2 and the reason; usage without a statement is exit code 2', async () => {
    const refused = await cli('SELECT 1; DROP TABLE sessions');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refused: only one statement/);
    const usage = await cli();
    expect(usage.code).toBe(2);
  }, 90_000);
});

describe('terminal text', () => {
  it('escapes C0/C1 controls, DEL, bidi and zero-width characters', () => {
    expect(terminalSafe('a\u001b[2Jb\u009b\u007f\u202e\u200bc\nd')).toBe('a\\u{001b}[2Jb\\u{009b}\\u{007f}\\u{202e}\\u{200b}c\\nd');
    expect(JSON.parse(terminalSafeJson({ s: '\u009b\u202e' })).s).toBe('\u009b\u202e');
    expect(terminalSafeJson({ s: '\u009b\u202e' })).not.toMatch(/[\u009b\u202e]/);
  });

  it('formatTable cuts wide cells and says when rows were cut', () => {
    const out = formatTable({ columns: ['a', 'b'], rows: [[null, 'x'.repeat(100)]], truncated: true, truncatedBy: 'rows', cellsCut: 0, elapsedMs: 1.5 });
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^a {5}b$/);
    expect(lines[2]).toBe(`NULL  ${'x'.repeat(59)}…`);
    expect(lines[3]).toBe('1 row (more rows exist: the console stops at 1), 1.5 ms');
  });
});
