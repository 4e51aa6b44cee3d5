// Test helper: Copilot CLI sessions written the way the CLI writes them (INTEROP §3), from the fixtures in
// `cli-events/` (one file per event type, lines exactly as the CLI serialises them; `bad-lines.jsonl` holds lines
// that are not events and a cut last line). Together, in FIXTURE_ORDER, the files are one coherent session:
// user message, a turn with four tool requests (ok, failed, MCP, a subagent), hooks, a failed subagent,
// compaction, error, model change, usage checkpoint, shutdown.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli-events');

/** The event-type fixtures in the order they make one session. */
export const FIXTURE_ORDER = [
  'session.start',
  'session.resume',
  'user.message',
  'assistant.turn_start',
  'assistant.message',
  'tool.execution_start',
  'tool.execution_complete',
  'hook.start',
  'hook.end',
  'subagent.started',
  'subagent.completed',
  'subagent.failed',
  'assistant.turn_end',
  'session.compaction_start',
  'session.compaction_complete',
  'session.error',
  'session.model_change',
  'session.usage_checkpoint',
  'session.shutdown',
] as const;
export type CliFixture = (typeof FIXTURE_ORDER)[number] | 'bad-lines';

/** The session id the fixtures name (the fork in session.start.jsonl names it as its parent). */
export const FIXTURE_SESSION_ID = '5e7c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';

/** A fixture's text as on disk (every file ends in '\n' but bad-lines.jsonl, whose last line is cut). */
export function cliFixtureText(name: CliFixture): string {
  return fs.readFileSync(path.join(CLI_FIXTURES_DIR, `${name}.jsonl`), 'utf8');
}

export interface CliSessionSpec {
  id: string;
  /** fixtures concatenated in this order; default FIXTURE_ORDER without the fork's session.start */
  fixtures?: readonly CliFixture[];
  /** ends the file with bad-lines.jsonl (lines that are not events, then a cut last line) */
  badLines?: boolean;
  /** omit session.shutdown (a crashed or running session) */
  noShutdown?: boolean;
  cwd?: string;
  /** written as vscode.metadata.json when given */
  vscodeMetadata?: object;
}

/**
 * Writes `<home>/session-state/<id>/{events.jsonl,workspace.yaml[,vscode.metadata.json]}` for each session and
 * returns the events.jsonl paths. Each session gets its own event ids (the fixtures' ids with the session's id
 * prefix), `parentId` re-chained to the previous event as the CLI does, and its id in `session.start`.
 */
export function writeCliSessionTree(home: string, sessions: CliSessionSpec[]): string[] {
  return sessions.map((spec) => {
    const dir = path.join(home, 'session-state', spec.id);
    fs.mkdirSync(dir, { recursive: true });
    const names = (spec.fixtures ?? FIXTURE_ORDER).filter((n) => !(spec.noShutdown && n === 'session.shutdown'));
    let previous: string | null = null;
    const out: string[] = [];
    for (const name of names) {
      const lines = cliFixtureText(name).trimEnd().split('\n');
      // session.start.jsonl's second line is a fork (another session); a session has one start.
      for (const text of name === 'session.start' ? lines.slice(0, 1) : lines) {
        const e = JSON.parse(text) as { id: string; parentId: string | null; data: Record<string, unknown> };
        e.id = `${spec.id.slice(0, 8)}${e.id.slice(8)}`;
        e.parentId = previous;
        previous = e.id;
        if (name === 'session.start') {
          e.data.sessionId = spec.id;
          if (spec.cwd) e.data.context = { cwd: spec.cwd };
        }
        out.push(JSON.stringify(e));
      }
    }
    let text = out.map((l) => l + '\n').join('');
    if (spec.badLines) text += cliFixtureText('bad-lines');
    const file = path.join(dir, 'events.jsonl');
    fs.writeFileSync(file, text);
    const cwd = spec.cwd ?? '/home/dev/code/platform';
    fs.writeFileSync(path.join(dir, 'workspace.yaml'), `id: ${spec.id}\ncwd: ${cwd}\nsummary_count: 0\ncreated_at: 2026-11-27T10:00:01.037Z\nupdated_at: 2026-11-27T10:00:37.000Z\n`);
    if (spec.vscodeMetadata) fs.writeFileSync(path.join(dir, 'vscode.metadata.json'), JSON.stringify(spec.vscodeMetadata));
    return file;
  });
}
