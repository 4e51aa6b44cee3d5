// Seeded, realistic corpus of Copilot Chat debug logs (layout and content per FORMAT.md §1-§4, edge cases per
// §7) for tests, the demo and benchmarks. Same seed + size + now => byte-identical JSONL: nothing in the logs
// depends on outDir (only workspace.json and the repos/ checkouts name it). Memory stays bounded: files are
// streamed in ~1 MB writes and only small per-session state is kept.
import fs from 'node:fs';
import path from 'node:path';
import { CLI_HOME, writeCliSessions, type CliCorpus } from './cli-sessions';
import { CoreEventSource } from './core-events';
import { writeEdgeFolders, type EdgeFolders } from './edge-cases';
import type { FileStats } from './jsonl-file';
import { planRefsOnlySession, planSessions, type PlanOptions } from './plan';
import { Rng, hashSeed } from './random';
import { writeTopLevelSession, type SharedState } from './session-writer';
import { CJK_WORDS, IDENTIFIERS } from './text';
import { PRODUCTS, planWorkspaces, writeWorkspace } from './workspace';

export interface CorpusOptions {
  outDir: string; // created if missing
  seed?: number; // default 42; same seed+size => byte-identical output
  targetBytes?: number; // total bytes of *.jsonl written (approximately, ±5%); default 64 MiB
  workspaces?: number; // default: max(8, ...) scaled with size
  sessions?: number; // top-level sessions; default scaled with size (>= 50 at 1 GiB)
  now?: number; // ms epoch the newest activity ends at; default 2026-11-28T12:00:00Z (deterministic)
  edgeCases?: boolean; // default true: include the FORMAT §7 edge cases
}

/**
 * Bumped whenever the generator writes different bytes for the same options, so that a cached corpus (the bench's,
 * the demo's) is regenerated instead of reused.
 */
export const GENERATOR_VERSION = 2;

/** Share of the target bytes written as Copilot CLI sessions (INTEROP §3). */
const CLI_SHARE = 0.12;

export interface CorpusManifest {
  generatorVersion: number;
  outDir: string;
  seed: number;
  /** Every *.jsonl written: debug logs (`files`) plus the CLI's events.jsonl and agentHostUsage files (`cli`). */
  bytes: number;
  userDataDirs: string[];
  workspaces: { storageDir: string; folder: string | null; repository: string | null; branch: string | null }[];
  /** A file's counts as it was written (`lines`: '\n'-terminated, always equal to completeLines: a partial tail is
   * not a line), without its slow and error counts, which the manifest keeps as totals. */
  files: Omit<FileStats, 'slowEvents' | 'errorEvents'>[];
  /** Debug-log files only: the CLI's files are in `cli`. */
  totals: {
    files: number;
    lines: number;
    events: number /* complete AND JSON-parseable object lines */;
    badLines: number;
    sessions: number /* distinct session ids incl. children */;
    slowEvents: number /* dur > 5000 */;
    errorEvents: number /* status=="error" */;
  };
  notable: {
    forkWithMissingParent: { sessionId: string; missingParentId: string };
    nestedSubagentSessions: string[];
    cjkWords: string[];
    rareWords: string[];
    identifiers: string[];
    bigSessionId: string;
    // Beyond the agreed API: facts tests need to know where the remaining edge cases are.
    /** A fork whose parent is in the corpus. */
    fork?: { sessionId: string; parentId: string } | null;
    /** Each rare word occurs only inside this one top-level session folder (its main.jsonl and child logs). */
    rareWordSessions?: Record<string, string>;
    /** One user_message spanId written into two sessions (FORMAT §4.9). */
    broadcastUserMessage?: { spanId: string; sessionIds: string[] } | null;
    /** The session whose main.jsonl ends in a partial line. */
    liveSessionId?: string;
    lmarSessionId?: string | null;
    sizeCappedSessionId?: string | null;
    legacySessionIds?: string[];
    nonUuidSessionIds?: string[];
    /** Session folders with no JSONL file at all (not counted in totals.sessions). */
    emptySessionDirs?: string[];
    modelsOnlySessionDirs?: string[];
    /** main.jsonl holds only session_start and child_session_ref (FORMAT §7.7). */
    refsOnlySessionId?: string | null;
  };
  /** Copilot CLI sessions under `<outDir>/.copilot/session-state/` (pass `cli.home` as the CLI's home). */
  cli: CliCorpus;
}

const MiB = 1 << 20;
const GiB = 1 << 30;
export const DEFAULT_NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

interface Resolved extends PlanOptions {
  outDir: string;
  workspaces: number;
}

function resolve(opts: CorpusOptions): Resolved {
  const targetBytes = Math.max(256 * 1024, Math.round(opts.targetBytes ?? 64 * MiB));
  const scale = Math.sqrt(targetBytes / GiB);
  return {
    outDir: path.resolve(opts.outDir),
    seed: opts.seed ?? 42,
    targetBytes,
    workspaces: Math.max(1, opts.workspaces ?? Math.max(8, Math.min(24, Math.round(8 + 8 * scale)))),
    sessions: Math.max(1, opts.sessions ?? Math.max(16, Math.round(400 * scale))),
    now: opts.now ?? DEFAULT_NOW,
    edgeCases: opts.edgeCases ?? true,
  };
}

/** Marks a directory as ours, written first so that even a run that crashed can be regenerated over. */
const MARKER = '.chronoscope-corpus';

/**
 * Removes what a previous run wrote (recognised by the marker or a manifest.json). A `Code` folder without
 * either may be someone's real VS Code data (`--out ~/.config`), so that is refused rather than deleted.
 */
function clearPreviousOutput(outDir: string): void {
  const ours = [...PRODUCTS, CLI_HOME, 'repos', 'manifest.json'];
  const present = ours.filter((name) => fs.existsSync(path.join(outDir, name)));
  if (present.length === 0) return;
  if (!fs.existsSync(path.join(outDir, MARKER)) && !fs.existsSync(path.join(outDir, 'manifest.json'))) {
    throw new Error(`${outDir} already holds ${present.join(', ')} not written by the corpus generator; choose an empty directory`);
  }
  for (const name of present) fs.rmSync(path.join(outDir, name), { recursive: true, force: true });
}

const yieldToEventLoop = () => new Promise<void>((r) => setImmediate(r));

export async function generateCorpus(opts: CorpusOptions): Promise<CorpusManifest> {
  const o = resolve(opts);
  fs.mkdirSync(o.outDir, { recursive: true });
  clearPreviousOutput(o.outDir);
  fs.writeFileSync(path.join(o.outDir, MARKER), 'Generated by server/corpus/generate.ts; safe to delete together with this directory.\n');
  const rng = new Rng(hashSeed(o.seed, 'corpus'));

  const workspaces = planWorkspaces(rng.fork('workspaces'), o.outDir, o.workspaces);
  const workspaceFacts = workspaces.map((ws) => writeWorkspace(ws, o.outDir));
  const files: FileStats[] = [];

  let edge: EdgeFolders | null = null;
  if (o.edgeCases) {
    const edgeRng = rng.fork('edge');
    const refsOnly = planRefsOnlySession(edgeRng, o, workspaces[Math.min(2, workspaces.length - 1)]);
    edge = writeEdgeFolders(edgeRng, workspaces[0], o.now - 119 * 86_400_000, refsOnly);
    files.push(...edge.files);
  }
  const edgeBytes = files.reduce((s, f) => s + f.bytes, 0);
  const cliBudget = Math.round(o.targetBytes * CLI_SHARE);
  const plan = planSessions(rng.fork('sessions'), o, workspaces, o.targetBytes - cliBudget - edgeBytes);

  const shared: SharedState = { core: new CoreEventSource(o.seed, o.now), firstPrompts: new Map() };
  const nested: string[] = [];
  // Overshoot of one session (its last request, a forced case) is taken from the next one's budget, so the
  // total lands within a request or two of the target.
  let planned = edgeBytes;
  let written = edgeBytes;
  for (const session of plan.sessions) {
    const budget = session.budget;
    session.budget = Math.max(2_000, budget + (planned - written));
    planned += budget;
    const out = writeTopLevelSession(session, shared);
    for (const f of out.files) written += f.bytes;
    files.push(...out.files);
    nested.push(...out.nestedChildIds);
    await yieldToEventLoop();
  }

  const cli = writeCliSessions(rng.fork('cli'), o.outDir, workspaces, o.now, cliBudget);

  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest: CorpusManifest = {
    generatorVersion: GENERATOR_VERSION,
    outDir: o.outDir,
    seed: o.seed,
    bytes: written + cli.bytes,
    userDataDirs: PRODUCTS.filter((p) => workspaces.some((w) => w.product === p)).map((p) => path.join(o.outDir, p)),
    workspaces: workspaceFacts,
    files: files.map(({ path, sessionId, kind, lines, completeLines, parseableLines, badLines, partialTail, bytes }) => ({
      path,
      sessionId,
      kind,
      lines,
      completeLines,
      parseableLines,
      badLines,
      partialTail,
      bytes,
    })),
    totals: {
      files: files.length,
      lines: sum(files, (f) => f.completeLines),
      events: sum(files, (f) => f.parseableLines),
      badLines: sum(files, (f) => f.badLines),
      sessions: new Set(files.map((f) => f.sessionId)).size,
      slowEvents: sum(files, (f) => f.slowEvents),
      errorEvents: sum(files, (f) => f.errorEvents),
    },
    notable: {
      forkWithMissingParent: plan.forkWithMissingParent,
      nestedSubagentSessions: nested,
      cjkWords: [...CJK_WORDS],
      rareWords: Object.keys(plan.rareWordSessions),
      identifiers: [...IDENTIFIERS],
      bigSessionId: plan.bigSessionId,
      fork: plan.fork,
      rareWordSessions: plan.rareWordSessions,
      broadcastUserMessage: plan.broadcast,
      liveSessionId: plan.liveSessionId,
      lmarSessionId: plan.lmarSessionId,
      sizeCappedSessionId: plan.sizeCappedSessionId,
      legacySessionIds: edge?.legacySessionIds ?? [],
      nonUuidSessionIds: plan.nonUuidSessionIds,
      emptySessionDirs: edge?.emptySessionDirs ?? [],
      modelsOnlySessionDirs: edge?.modelsOnlySessionDirs ?? [],
      refsOnlySessionId: edge?.refsOnlySessionId ?? null,
    },
    cli,
  };
  fs.writeFileSync(path.join(o.outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

function sum<T>(items: T[], f: (item: T) => number): number {
  let s = 0;
  for (const item of items) s += f(item);
  return s;
}
