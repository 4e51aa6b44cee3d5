import type { NormalizedEvent } from '../../shared/log-entry';
import { jsonValueOf } from '../search/parsed-json';

export interface FileTouch {
  path: string;
  tool: string;
}
export interface RefFound {
  type: 'pr' | 'issue' | 'commit';
  value: string;
}

// The tools whose args name a file (Chronicle's list, FORMAT §5.5 step 2).
const FILE_TOOLS = new Set([
  'replace_string_in_file',
  'multi_replace_string_in_file',
  'insert_edit_into_file',
  'create_file',
  'create_directory',
  'edit_notebook_file',
  'apply_patch',
  'read_file',
  'view_image',
  'list_dir',
  'str_replace_editor',
  'create',
]);

// The Copilot CLI's file tools (INTEROP §3; server/corpus/cli-sessions.ts): `path` names the file.
const CLI_FILE_TOOLS = new Set(['view', 'edit', 'create', 'str_replace_editor', 'str_replace', 'insert']);

function parseArgs(args: unknown): Record<string, unknown> | null {
  if (typeof args !== 'string') return null;
  // parsed already, as a rule, when the line's search text was read (parsed-json.ts)
  const v = jsonValueOf(args);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * Chronicle's reindex loses the file whenever `args` was cut at 5,000 characters (the JSON no longer parses,
 * FORMAT §5.5). The path key comes first in every tool's args, so it survives the cut: read it from the text.
 */
function pathFromCutArgs(args: string): string | null {
  const m = /"(?:filePath|path|dirPath)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(args);
  if (!m) return null;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return null;
  }
}

function filePathOf(tool: string, args: Record<string, unknown> | null, rawArgs: unknown): string | null {
  if (args) {
    if (tool === 'multi_replace_string_in_file') {
      const reps = args.replacements;
      const first = Array.isArray(reps) ? (reps[0] as Record<string, unknown> | undefined) : undefined;
      return typeof first?.filePath === 'string' ? first.filePath : null;
    }
    if (tool === 'apply_patch') {
      const input = typeof args.input === 'string' ? args.input : typeof args.patch === 'string' ? args.patch : '';
      const m = /\*\*\* (?:Update|Add|Delete) File: (.+)/.exec(input);
      return m ? m[1].trim() : null;
    }
    const p = args.filePath ?? args.path ?? args.dirPath;
    return typeof p === 'string' && p !== '' ? p : null;
  }
  if (typeof rawArgs === 'string') {
    if (tool === 'apply_patch') {
      const m = /\*\*\* (?:Update|Add|Delete) File: ([^\\"\n]+)/.exec(rawArgs);
      return m ? m[1].trim() : null;
    }
    return pathFromCutArgs(rawArgs);
  }
  return null;
}

const PR_URL = /https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\/pull\/(\d+)/g;
const ISSUE_URL = /https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\/issues\/(\d+)/g;
const COMMIT_LINE = /\[[^\]\s]+ ([0-9a-f]{7,40})\]/;

function isNumeric(v: unknown): boolean {
  return (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\d+$/.test(v));
}

/** Files and refs (PR, issue, commit) that a tool call names: Chronicle's rules (FORMAT §5.5) plus cut args. */
export function filesAndRefsOfToolCall(ev: NormalizedEvent): { files: FileTouch[]; refs: RefFound[] } {
  const files: FileTouch[] = [];
  const refs: RefFound[] = [];
  if (ev.type !== 'tool_call' || ev.tool === null) return { files, refs };
  const tool = ev.tool;
  // A CLI completion's arguments are those of its start line (the linker hands them over); a debug log's are `args`.
  const args = ev.cli ? (ev.cli.startArguments ?? null) : parseArgs(ev.attrs.args);
  if (ev.cli ? CLI_FILE_TOOLS.has(tool) : FILE_TOOLS.has(tool)) {
    const p = filePathOf(tool, args, ev.attrs.args);
    if (p) files.push({ path: p, tool });
  }
  if (args && (tool.startsWith('mcp_github_') || tool.startsWith('github-mcp-server-'))) {
    if (tool.includes('pull_request') && isNumeric(args.pullNumber)) refs.push({ type: 'pr', value: String(args.pullNumber) });
    if (tool.includes('issue') && isNumeric(args.issue_number)) refs.push({ type: 'issue', value: String(args.issue_number) });
    if (tool.includes('commit') && typeof args.sha === 'string') refs.push({ type: 'commit', value: args.sha });
  }
  if (tool === 'run_in_terminal' || tool === 'runInTerminal') {
    const command = typeof args?.command === 'string' ? args.command : '';
    const result = typeof ev.attrs.result === 'string' ? ev.attrs.result : '';
    if (/\bgh pr (create|checkout|view|merge)\b/.test(command)) {
      for (const m of result.matchAll(PR_URL)) refs.push({ type: 'pr', value: m[3] });
    }
    if (/\bgh issue create\b/.test(command)) {
      for (const m of result.matchAll(ISSUE_URL)) refs.push({ type: 'issue', value: m[3] });
    }
    if (/\bgit commit\b/.test(command)) {
      const m = COMMIT_LINE.exec(result);
      if (m) refs.push({ type: 'commit', value: m[1] });
    }
  }
  return { files, refs };
}

/** PR and issue URLs written in messages and responses are refs too (the issue asks for more than Chronicle). */
export function refsInText(text: string): RefFound[] {
  const refs: RefFound[] = [];
  for (const m of text.matchAll(PR_URL)) refs.push({ type: 'pr', value: m[3] });
  for (const m of text.matchAll(ISSUE_URL)) refs.push({ type: 'issue', value: m[3] });
  return refs;
}
