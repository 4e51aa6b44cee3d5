import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../ingest/normalize';
import { discoverySkipReasons, errorSignature, failureSignature, SIGNATURE_MAX } from './signature';

describe('errorSignature', () => {
  it('puts messages that differ only in a path in one group', () => {
    expect(errorSignature('File not found: /a/b.ts')).toBe('File not found: <path>');
    expect(errorSignature('File not found: /c/d.ts')).toBe(errorSignature('File not found: /a/b.ts'));
    expect(errorSignature("ENOENT: no such file or directory, open '/w/src/x.ts'")).toBe("ENOENT: no such file or directory, open '<path>'");
    expect(errorSignature('Error at C:\\Users\\me\\proj\\a.ts line 3')).toBe('Error at <path> line <n>');
    expect(errorSignature('Could not find matching text to replace in src/net/retry.ts')).toBe('Could not find matching text to replace in <path>');
    expect(errorSignature('Failed to read .github/instructions/legacy.instructions.md: EACCES: permission denied')).toBe(
      'Failed to read <path>: EACCES: permission denied',
    );
    expect(errorSignature('see ~/x/y and ./z')).toBe('see <path> and <path>');
  });

  it('masks numbers, also when a unit follows, but not digits inside words', () => {
    expect(errorSignature('Request timed out after 30000ms')).toBe(errorSignature('Request timed out after 30400ms'));
    expect(errorSignature('Request timed out after 30000ms')).toBe('Request timed out after <n>ms');
    expect(errorSignature('Server error: 429 Too Many Requests; retry after 12 seconds.')).toBe('Server error: <n> Too Many Requests; retry after <n> seconds.');
    expect(errorSignature('took 1.5s and 1,024 bytes')).toBe('took <n>s and <n> bytes');
    expect(errorSignature('utf8 decoding in e2e over http2 failed')).toBe('utf8 decoding in e2e over http2 failed');
  });

  it('masks URLs, timestamps, UUIDs, prefixed ids and hashes', () => {
    expect(errorSignature('fetch https://api.github.com/repos/x/y?z=1 failed')).toBe('fetch <url> failed');
    expect(errorSignature('at 2026-03-11T10:00:00.123Z boom')).toBe('at <time> boom');
    expect(errorSignature('session 9f0c1a2b-1111-2222-3333-444455556666 gone')).toBe('session <id> gone');
    expect(errorSignature('tool call_1a2b3c4d5e6f7a8b failed')).toBe('tool <id> failed');
    expect(errorSignature('tool toolu_01ABCdef234567 failed')).toBe('tool <id> failed');
    expect(errorSignature('commit 3f2a9bc1 not found')).toBe('commit <hash> not found');
  });

  it('keeps words with slashes that are not paths', () => {
    expect(errorSignature('and/or read/write failed')).toBe('and/or read/write failed');
  });

  it('keeps the first non-empty line, collapses whitespace and cuts long messages', () => {
    expect(errorSignature('\n  Error:   x\n   at foo (/a/b.js:1:2)')).toBe('Error: x');
    expect(errorSignature('x'.repeat(1000))).toHaveLength(SIGNATURE_MAX);
    expect(errorSignature(null)).toBe('(no message)');
    expect(errorSignature('   ')).toBe('(no message)');
  });
});

describe('discoverySkipReasons', () => {
  it('reads the reasons of the skipped list', () => {
    const details =
      'Discovered 4 skills, loaded 3. loaded: ["a", "b"] skipped: [{"path": ".github/skills/release/SKILL.md", "reason": "name-mismatch"}, {"path": "x", "reason": "missing-description"}]';
    expect(discoverySkipReasons(details)).toEqual(['missing-description', 'name-mismatch']);
  });
  it('is empty when nothing was skipped or there is no skipped list', () => {
    expect(discoverySkipReasons('loaded: [".github/prompts/review.prompt.md"] skipped: []')).toEqual([]);
    expect(discoverySkipReasons('loaded: ["AGENTS.md"] folders: [".github/agents"]')).toEqual([]);
    expect(discoverySkipReasons(undefined)).toEqual([]);
  });
  it('reads a reason cut by the 5,000-character truncation, and prose forms', () => {
    expect(discoverySkipReasons('skipped: [{"path": "a", "reason": "name-mismatch"}, {"path": "b", "rea[truncated]')).toEqual(['name-mismatch']);
    expect(discoverySkipReasons('skipped 2 (name-mismatch)')).toEqual(['name-mismatch']);
    expect(discoverySkipReasons('skipped: something odd')).toEqual(['unknown reason']);
  });
});

describe('failureSignature', () => {
  const ev = (o: object) => normalizeEntry({ ts: 1, dur: 5, sid: 's', spanId: 'x', status: 'ok', attrs: {}, ...o });

  it('gives every error a signature and ok events none', () => {
    expect(failureSignature(ev({ type: 'tool_call', name: 'read_file', status: 'error', attrs: { error: 'File not found: /a.ts' } }))).toBe('File not found: <path>');
    expect(failureSignature(ev({ type: 'llm_request', name: 'chat:gpt-4.1', status: 'error', attrs: {} }))).toBe('(no message)');
    expect(failureSignature(ev({ type: 'tool_call', name: 'read_file', attrs: { result: 'ok' } }))).toBeNull();
  });
  it('counts hooks with a non-blocking error, and hooks with resultKind error', () => {
    expect(failureSignature(ev({ type: 'hook', name: 'PreToolUse', attrs: { resultKind: 'non_blocking_error', error: 'guard.sh: line 12: jq: command not found' } }))).toBe(
      'guard.sh: line <n>: jq: command not found',
    );
    expect(failureSignature(ev({ type: 'hook', name: 'Stop', attrs: { resultKind: 'error', output: 'exit status 2' } }))).toBe('exit status <n>');
    expect(failureSignature(ev({ type: 'hook', name: 'Stop', attrs: { resultKind: 'success' } }))).toBeNull();
  });
  it('turns a discovery skip into a signature of its reasons, and a discovery error into its message', () => {
    expect(
      failureSignature(ev({ type: 'discovery', name: 'Load Skills', attrs: { details: 'skipped: [{"path": "a", "reason": "name-mismatch"}]', source: 'core' } })),
    ).toBe('skipped: name-mismatch');
    expect(failureSignature(ev({ type: 'discovery', name: 'Load Agents', attrs: { details: 'loaded: ["Explore"]' } }))).toBeNull();
    expect(failureSignature(ev({ type: 'discovery', name: 'Load Instructions', status: 'error', attrs: { details: 'Failed to read /x/y.md: EACCES' } }))).toBe(
      'Failed to read <path>: EACCES',
    );
  });
});
