import path from 'node:path';

/** Companion files: a debug-log session's (FORMAT §2.2) and a CLI session's metadata (INTEROP §3). */
export type CompanionKind = 'models' | 'system_prompt' | 'tools' | 'cli_workspace' | 'cli_vscode_metadata' | 'agent_host_usage';

export type LogPathKind =
  | { kind: 'main'; folderSessionId: string; sessionId: string; label: null }
  | { kind: 'child'; folderSessionId: string; sessionId: string; label: string }
  | { kind: 'legacy'; folderSessionId: string; sessionId: string; label: null }
  | { kind: 'cli'; folderSessionId: string; sessionId: string; label: null }
  | { kind: 'companion'; folderSessionId: string; name: string; companion: CompanionKind; index: number | null }
  | { kind: 'ignored'; reason: string };

const UUID_TAIL = /^(.+)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Splits a child log's name `<label>-<childSessionId>.jsonl` (FORMAT §2.3). Labels contain dashes
 * (`runSubagent-Explore`), so a UUID tail is taken whole; otherwise the id is what follows the last dash.
 */
export function splitChildName(base: string): { label: string; sessionId: string } {
  const m = UUID_TAIL.exec(base);
  if (m) return { label: m[1], sessionId: m[2] };
  const dash = base.lastIndexOf('-');
  if (dash <= 0 || dash === base.length - 1) return { label: base, sessionId: base };
  return { label: base.slice(0, dash), sessionId: base.slice(dash + 1) };
}

/** What a path under a `debug-logs` folder is (FORMAT §2.1–§2.5). */
export function classifyLogPath(debugLogsDir: string, file: string): LogPathKind {
  const rel = path.relative(debugLogsDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return { kind: 'ignored', reason: 'outside debug-logs' };
  const parts = rel.split(path.sep);
  const name = parts[parts.length - 1];
  if (name.endsWith('.tmp')) return { kind: 'ignored', reason: 'transient size-cap file' };
  if (parts.length === 1) {
    if (name.endsWith('.jsonl')) {
      const id = name.slice(0, -'.jsonl'.length);
      return { kind: 'legacy', folderSessionId: id, sessionId: id, label: null };
    }
    return { kind: 'ignored', reason: 'not a session entry' };
  }
  if (parts.length !== 2) return { kind: 'ignored', reason: 'nested too deep' };
  const folder = parts[0];
  if (name === 'main.jsonl') return { kind: 'main', folderSessionId: folder, sessionId: folder, label: null };
  if (name.endsWith('.jsonl')) {
    const { label, sessionId } = splitChildName(name.slice(0, -'.jsonl'.length));
    return { kind: 'child', folderSessionId: folder, sessionId, label };
  }
  if (name === 'models.json') return { kind: 'companion', folderSessionId: folder, name, companion: 'models', index: null };
  const m = /^(system_prompt|tools)_(\d+)\.json$/.exec(name);
  if (m) return { kind: 'companion', folderSessionId: folder, name, companion: m[1] as 'system_prompt' | 'tools', index: Number(m[2]) };
  return { kind: 'ignored', reason: 'unknown file' };
}

/** What a path under a Copilot CLI `session-state` folder is (INTEROP §3): `<sessionId>/events.jsonl` and its metadata. */
export function classifyCliPath(sessionStateDir: string, file: string): LogPathKind {
  const rel = path.relative(sessionStateDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return { kind: 'ignored', reason: 'outside session-state' };
  const parts = rel.split(path.sep);
  if (parts.length !== 2) return { kind: 'ignored', reason: parts.length === 1 ? 'not a session entry' : 'nested too deep' };
  const [id, name] = parts;
  if (name === 'events.jsonl') return { kind: 'cli', folderSessionId: id, sessionId: id, label: null };
  if (name === 'workspace.yaml') return { kind: 'companion', folderSessionId: id, name, companion: 'cli_workspace', index: null };
  if (name === 'vscode.metadata.json') return { kind: 'companion', folderSessionId: id, name, companion: 'cli_vscode_metadata', index: null };
  return { kind: 'ignored', reason: 'unknown file' };
}

/** `User/agentHostUsage/<sessionId>.jsonl`: VS Code's per-call usage of a CLI session, archived as its companion. */
export function classifyAgentHostUsagePath(dir: string, file: string): LogPathKind {
  const rel = path.relative(dir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel) || rel.includes(path.sep) || !rel.endsWith('.jsonl')) return { kind: 'ignored', reason: 'not a usage file' };
  const id = rel.slice(0, -'.jsonl'.length);
  return { kind: 'companion', folderSessionId: id, name: rel, companion: 'agent_host_usage', index: null };
}
