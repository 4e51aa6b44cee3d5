import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { rawLines } from '../../db/raw-lines';

/** What a CLI session says about itself (INTEROP §3), beside what its events add up to. */
export interface CliSessionFacts {
  cwd: string | null;
  repository: string | null;
  branch: string | null;
  /** vscode.metadata.json `customTitle`: the name the user gave the session in VS Code */
  title: string | null;
  /** session.shutdown totals; null while the session runs or after a crash (no shutdown written) */
  shutdown: ShutdownTotals | null;
  /** the session VS Code forked this one from, or started it under (`parentSessionId`, `kind` 'sub-session') */
  parent: MetadataParent | null;
}

export interface MetadataParent {
  id: string;
  kind: 'fork' | 'child';
}

/**
 * The parent a vscode.metadata.json names (VS Code's ChatSessionMetadataFile: `parentSessionId`, with `kind`
 * 'forked' or 'sub-session'); null when it names none, or the session itself.
 */
export function metadataParent(meta: Record<string, unknown>, sessionId: string): MetadataParent | null {
  const id = str(meta.parentSessionId);
  if (id === null || id === sessionId) return null;
  return { id, kind: meta.kind === 'sub-session' ? 'child' : 'fork' };
}


/** Per-session totals of `session.shutdown` (INTEROP §3): the only place input, cache and credits are written. */
export interface ShutdownTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** AI credits × 10⁹; null when the shutdown carries none */
  creditsNano: number | null;
  premiumRequests: number | null;
  apiDurationMs: number | null;
  /** the same per model (`modelMetrics` keys) */
  byModel: Map<string, ModelTotals>;
}

export interface ModelTotals {
  inputTokens: number;
  cacheReadTokens: number;
  creditsNano: number | null;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** workspace.yaml as an object; anything unreadable (cut, not YAML, not a mapping) is empty. */
export function parseWorkspaceYaml(text: string | null): Obj {
  if (text === null) return {};
  try {
    const v: unknown = yamlParser()(text);
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * The YAML parser, loaded the first time a workspace.yaml needs it (workspaceYamlCwd reads the CLI's own documents
 * without it): loading it took ~17 ms of every ingest worker's start.
 */
let parseYaml: ((text: string) => unknown) | undefined;
function yamlParser(): (text: string) => unknown {
  parseYaml ??= (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse;
  return parseYaml;
}

/**
 * A line of the flat `key: value` form the CLI writes workspace.yaml in, whose value is a plain scalar that means
 * itself: no quotes, flow or block indicators, anchors, tags, comments (` #`), no `: ` inside and no space at its
 * ends. A document of such lines (and blank lines), each key once, parses to exactly these strings and scalars.
 */
const FLAT_LINE = /^([A-Za-z_][A-Za-z0-9_]*): ([A-Za-z0-9/~._\\][^\x00-\x1f\x7f-\x9f\ufeff\ufffe\uffff#'"{}[\],&*!|>%@`]*)$/;
/** What YAML 1.2's core schema reads as null, a boolean or a number rather than a string (yaml's default schema). */
const CORE_NON_STRING = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/**
 * workspace.yaml's `cwd`, as `parseWorkspaceYaml(text).cwd` gives it through str(). The document the CLI writes
 * (flat keys, plain values) is read line by line; anything else goes to the YAML parser, which cost ~0.5–1 ms a
 * session in a backfill (3.5 of the ingest thread's 75 CPU s on the 1.6 GiB corpus, 3,600 CLI sessions).
 */
export function workspaceYamlCwd(text: string | null): string | null {
  if (text === null) return null;
  const keys = new Set<string>();
  let cwd: string | null = null;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [, key, value] = FLAT_LINE.exec(line) ?? [];
    const plain = key !== undefined && !value.includes(': ') && !value.endsWith(':') && !value.endsWith(' ') && !CORE_NON_STRING.test(key) && !keys.has(key);
    if (!plain) return str(parseWorkspaceYaml(text).cwd);
    keys.add(key);
    if (key === 'cwd') cwd = CORE_NON_STRING.test(value) ? null : value;
  }
  return str(cwd);
}

function parseJsonObject(text: string | null): Obj {
  if (text === null) return {};
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}

/** `session.shutdown` data summed over its models (`modelMetrics`), with the session-wide credit total preferred. */
export function shutdownTotals(data: Obj): ShutdownTotals {
  const t: ShutdownTotals = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    creditsNano: null,
    premiumRequests: null,
    apiDurationMs: null,
    byModel: new Map(),
  };
  let modelNano: number | null = null;
  const metrics = isObject(data.modelMetrics) ? data.modelMetrics : {};
  for (const [model, m] of Object.entries(metrics)) {
    if (!isObject(m)) continue;
    const u = isObject(m.usage) ? m.usage : {};
    t.byModel.set(model, { inputTokens: num(u.inputTokens) ?? 0, cacheReadTokens: num(u.cacheReadTokens) ?? 0, creditsNano: num(m.totalNanoAiu) });
    t.inputTokens += num(u.inputTokens) ?? 0;
    t.outputTokens += num(u.outputTokens) ?? 0;
    t.cacheReadTokens += num(u.cacheReadTokens) ?? 0;
    t.cacheWriteTokens += num(u.cacheWriteTokens) ?? 0;
    const nano = num(m.totalNanoAiu);
    if (nano !== null) modelNano = (modelNano ?? 0) + nano;
  }
  t.creditsNano = num(data.totalNanoAiu) ?? modelNano;
  t.premiumRequests = num(data.totalPremiumRequests);
  t.apiDurationMs = num(data.totalApiDurationMs);
  return t;
}

/** The latest session.shutdown of a CLI session, summed (null when it has none: running or crashed). */
export function makeShutdownReader(db: Database.Database) {
  const shutdown = db.prepare("SELECT id FROM events WHERE session_num = ? AND type = 'session.shutdown' ORDER BY id DESC LIMIT 1");
  const raw = rawLines(db);
  return (sessionNum: number): ShutdownTotals | null => {
    const row = shutdown.get(sessionNum) as { id: number } | undefined;
    const line = row ? (raw.json(row.id) as Obj | null) : null;
    return line && isObject(line.data) ? shutdownTotals(line.data) : null;
  };
}

/**
 * Reads a CLI session's folder, repository, branch and title: vscode.metadata.json first (what VS Code shows),
 * then workspace.yaml (`cwd`), then session.start's `context`; and its latest session.shutdown. Everything from
 * the archive (companions, archived lines), so a rebuild or a deleted session folder gives the same facts.
 */
export function makeCliFactsReader(db: Database.Database) {
  const st = {
    companion: db.prepare('SELECT content FROM companions WHERE session_id = ? AND kind = ? ORDER BY id DESC LIMIT 1'),
    // through the partial index events_session_marks, like the shutdown
    start: db.prepare("SELECT id FROM events WHERE session_num = ? AND type = 'session_start' ORDER BY id LIMIT 1"),
  };
  const shutdownOf = makeShutdownReader(db);
  const raw = rawLines(db);
  const dataOf = (id: number | undefined): Obj | null => {
    if (id === undefined) return null;
    const line = raw.json(id) as Obj | null;
    return line && isObject(line.data) ? line.data : null;
  };

  return function cliSessionFacts(sessionId: string, sessionNum: number): CliSessionFacts {
    const companion = (kind: string) => (st.companion.get(sessionId, kind) as { content: string | null } | undefined)?.content ?? null;
    const meta = parseJsonObject(companion('cli_vscode_metadata'));
    const start = dataOf((st.start.get(sessionNum) as { id: number } | undefined)?.id);
    const context = start && isObject(start.context) ? start.context : {};
    // VS Code writes `workspaceFolder: {folderPath, timestamp}` and `repositoryProperties: {repositoryPath,
    // branchName, …}` (its ChatSessionMetadataFile); a bare string and `path` are read too.
    const folder = meta.workspaceFolder;
    const metaFolder = str(folder) ?? (isObject(folder) ? (str(folder.folderPath) ?? str(folder.path)) : null);
    const repositoryProperties = isObject(meta.repositoryProperties) ? meta.repositoryProperties : {};
    // workspace.yaml only gives the folder: not read (nor parsed) when the metadata names it
    const yamlCwd = () => workspaceYamlCwd(companion('cli_workspace'));
    return {
      cwd: metaFolder ?? yamlCwd() ?? str(context.cwd) ?? str(context.gitRoot),
      repository: str(meta.repository) ?? (isObject(meta.repository) ? str(meta.repository.name) : null) ?? str(context.repository),
      branch: str(meta.branch) ?? str(repositoryProperties.branchName) ?? str(context.branch),
      title: str(meta.customTitle),
      shutdown: shutdownOf(sessionNum),
      parent: metadataParent(meta, sessionId),
    };
  };
}
