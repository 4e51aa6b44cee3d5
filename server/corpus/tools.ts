// Arguments, results, failures and durations of the tools an agent calls (FORMAT §3.2 tool_call, §5.5 for
// the shapes the reindexer extracts files and refs from: filePath args, `[branch sha]` commit output, PR URLs,
// MCP pullNumber / issue_number). Subagent tools are not here: they spawn child logs (agent-loop.ts).
import type { Rng } from './random';
import { assistantText, bulkCode, codeSnippet, commitMessage, errorText, identifier, repoFile } from './text';
import type { WorkspacePlan } from './workspace';

export type SimpleToolKind =
  | 'read_file'
  | 'grep_search'
  | 'list_dir'
  | 'file_search'
  | 'replace_string_in_file'
  | 'multi_replace_string_in_file'
  | 'create_file'
  | 'apply_patch'
  | 'run_in_terminal'
  | 'get_errors'
  | 'manage_todo_list'
  | 'fetch_webpage'
  | 'mcp_github_get_pull_request'
  | 'mcp_github_get_issue'
  | 'mcp_github_get_commit';

export type ToolKind = SimpleToolKind | 'runSubagent' | 'search_subagent';

/** Tools the agent may run in parallel within one iteration (they do not change the workspace). */
export const READ_ONLY: ReadonlySet<ToolKind> = new Set<ToolKind>(['read_file', 'grep_search', 'list_dir', 'file_search', 'get_errors']);

const MAIN_WEIGHTS: readonly (readonly [ToolKind, number])[] = [
  ['read_file', 26],
  ['grep_search', 10],
  ['list_dir', 5],
  ['file_search', 4],
  ['replace_string_in_file', 14],
  ['multi_replace_string_in_file', 3],
  ['create_file', 4],
  ['apply_patch', 4],
  ['run_in_terminal', 12],
  ['get_errors', 4],
  ['manage_todo_list', 3],
  ['fetch_webpage', 1],
  ['mcp_github_get_pull_request', 2],
  ['mcp_github_get_issue', 2],
  ['mcp_github_get_commit', 1],
  ['runSubagent', 2],
  ['search_subagent', 1],
];

const SUBAGENT_WEIGHTS: readonly (readonly [ToolKind, number])[] = [
  ['read_file', 40],
  ['grep_search', 25],
  ['file_search', 10],
  ['list_dir', 10],
  ['get_errors', 5],
  ['runSubagent', 1],
];

export function pickToolKind(rng: Rng, inSubagent: boolean): ToolKind {
  return rng.weighted(inSubagent ? SUBAGENT_WEIGHTS : MAIN_WEIGHTS);
}

export interface ToolEnv {
  rng: Rng;
  ws: WorkspacePlan;
}

export interface ToolOutcome {
  name: string;
  /** Raw JSON text of the arguments; the emitter applies the attribute cap. */
  args: string;
  result?: string;
  error?: string;
  dur: number;
}

export interface ToolOptions {
  fail?: boolean;
  /** read_file whose result puts an emoji's high surrogate exactly at the 5,000-character cut (FORMAT §7.31). */
  surrogateSplit?: boolean;
  /** create_file with content large enough that `args` is cut at 5,000 characters (FORMAT §7.18). */
  bigContent?: boolean;
}

const FAIL_RATE: Partial<Record<SimpleToolKind, number>> = {
  read_file: 0.02,
  replace_string_in_file: 0.03,
  create_file: 0.01,
  run_in_terminal: 0.02,
  mcp_github_get_pull_request: 0.03,
  mcp_github_get_issue: 0.03,
  fetch_webpage: 0.04,
};

function ms(rng: Rng, median: number, sigma: number): number {
  return Math.max(1, Math.round(rng.logNormal(median, sigma)));
}

export function simpleTool(env: ToolEnv, kind: SimpleToolKind, opts: ToolOptions = {}): ToolOutcome {
  const { rng, ws } = env;
  const abs = (rel: string) => `${ws.logRoot}/${rel}`;
  const fail = opts.fail ?? rng.chance(FAIL_RATE[kind] ?? 0.004);
  switch (kind) {
    case 'read_file': {
      const path = abs(fail ? `src/${identifier(rng)}.ts` : repoFile(rng));
      const start = rng.int(1, 200);
      const lines = Math.min(400, Math.max(3, Math.round(rng.logNormal(5, 0.7))));
      const args = JSON.stringify({ filePath: path, startLine: start, endLine: start + lines - 1 });
      if (fail) return { name: kind, args, error: `File not found: ${path}`, dur: ms(rng, 8, 0.5) };
      let result: string;
      if (opts.surrogateSplit) result = bulkCode(rng, 5000).slice(0, 4999) + '🚀 deploy step\n' + codeSnippet(rng, 4);
      else if (rng.chance(0.015)) result = bulkCode(rng, 5200 + rng.int(0, 20000)); // whole-file read, capped by the logger
      else result = codeSnippet(rng, lines);
      return { name: kind, args, result, dur: ms(rng, 25, 0.8) };
    }
    case 'grep_search': {
      const q = identifier(rng);
      const args = JSON.stringify({ query: q, isRegexp: false, includePattern: 'src/**' });
      const n = rng.int(0, 5);
      let result = n ? `${n} matches` : 'No matches found.';
      for (let i = 0; i < n; i++) result += `\n${repoFile(rng)}:${rng.int(1, 400)}: ${q}(`;
      return { name: kind, args, result, dur: ms(rng, 120, 0.8) };
    }
    case 'list_dir': {
      const args = JSON.stringify({ path: abs(rng.pick(['src', 'src/util', 'test', '.'])) });
      return { name: kind, args, result: 'util/\nnet/\nstore/\nindex.ts\nconfig.ts', dur: ms(rng, 30, 0.7) };
    }
    case 'file_search': {
      const args = JSON.stringify({ query: `**/*${rng.pick(['retry', 'date', 'ws', 'store'])}*` });
      return { name: kind, args, result: `${abs(repoFile(rng))}\n${abs(repoFile(rng))}`, dur: ms(rng, 40, 0.7) };
    }
    case 'replace_string_in_file': {
      const path = abs(repoFile(rng));
      const args = JSON.stringify({ filePath: path, oldString: codeSnippet(rng, rng.int(1, 3)), newString: codeSnippet(rng, rng.int(1, 4)) });
      if (fail) return { name: kind, args, error: `Could not find matching text to replace in ${path}`, dur: ms(rng, 30, 0.5) };
      return { name: kind, args, result: `The following files were successfully edited:\n${path}`, dur: ms(rng, 90, 0.9) };
    }
    case 'multi_replace_string_in_file': {
      const edits = [0, 1].map(() => ({ filePath: abs(repoFile(rng)), oldString: identifier(rng), newString: identifier(rng) }));
      const args = JSON.stringify({ explanation: 'Rename across files', replacements: edits });
      return { name: kind, args, result: `Applied ${edits.length} replacements.`, dur: ms(rng, 150, 0.8) };
    }
    case 'create_file': {
      const path = abs(`src/${identifier(rng)}.ts`);
      const content = opts.bigContent || rng.chance(0.06) ? bulkCode(rng, 5200 + rng.int(0, 8000)) : codeSnippet(rng, rng.int(3, 10));
      const args = JSON.stringify({ filePath: path, content });
      if (fail) return { name: kind, args, error: `ENOENT: no such file or directory, open '${path}'`, dur: ms(rng, 10, 0.5) };
      return { name: kind, args, result: `The following files were successfully edited:\n${path}`, dur: ms(rng, 60, 0.7) };
    }
    case 'apply_patch': {
      const path = abs(repoFile(rng));
      const input = `*** Begin Patch\n*** Update File: ${path}\n@@\n-${codeSnippet(rng, 1)}\n+${codeSnippet(rng, 1)}\n*** End Patch`;
      const args = JSON.stringify({ input, explanation: 'Apply the fix' });
      return { name: kind, args, result: 'Patch applied successfully.', dur: ms(rng, 120, 0.8) };
    }
    case 'run_in_terminal':
      return terminal(env, fail);
    case 'get_errors': {
      const args = JSON.stringify({ filePaths: [abs(repoFile(rng))] });
      const result = rng.chance(0.7) ? 'No errors found.' : `${repoFile(rng)}:${rng.int(1, 300)}:${rng.int(1, 40)} - ${errorText(rng)}`;
      return { name: kind, args, result, dur: ms(rng, 300, 0.6) };
    }
    case 'manage_todo_list': {
      const args = JSON.stringify({ operation: 'write', todoList: [{ id: 1, title: `Fix ${identifier(rng)}`, status: rng.pick(['not-started', 'in-progress', 'completed']) }] });
      return { name: kind, args, result: 'Successfully wrote todo list', dur: ms(rng, 5, 0.5) };
    }
    case 'fetch_webpage': {
      const args = JSON.stringify({ urls: ['https://nodejs.org/api/fs.html'], query: 'fs.appendFile flush' });
      if (fail) return { name: kind, args, error: 'Request timed out after 30000ms', dur: 30_000 + rng.int(0, 400) };
      return { name: kind, args, result: 'fs.appendFile(path, data[, options], callback): Asynchronously append data to a file, creating the file if it does not yet exist.', dur: ms(rng, 2500, 0.8) };
    }
    case 'mcp_github_get_pull_request':
    case 'mcp_github_get_issue':
    case 'mcp_github_get_commit':
      return githubMcp(env, kind, fail);
  }
}

function ownerRepo(ws: WorkspacePlan): [string, string] {
  const [owner, repo] = (ws.githubRepo ?? 'acme/chronoscope').split('/');
  return [owner, repo];
}

function githubMcp(env: ToolEnv, kind: 'mcp_github_get_pull_request' | 'mcp_github_get_issue' | 'mcp_github_get_commit', fail: boolean): ToolOutcome {
  const { rng, ws } = env;
  const [owner, repo] = ownerRepo(ws);
  const dur = ms(rng, 700, 0.6);
  let args: string;
  let result: string;
  if (kind === 'mcp_github_get_pull_request') {
    const pullNumber = rng.int(1, 900);
    args = JSON.stringify({ owner, repo, pullNumber });
    result = JSON.stringify({ number: pullNumber, title: commitMessage(rng), state: rng.pick(['open', 'closed', 'merged']), user: { login: owner }, html_url: `https://github.com/${owner}/${repo}/pull/${pullNumber}` });
  } else if (kind === 'mcp_github_get_issue') {
    const issue_number = rng.int(1, 900);
    args = JSON.stringify({ owner, repo, issue_number });
    result = JSON.stringify({ number: issue_number, title: `${identifier(rng)} fails after reconnect`, state: 'open', labels: ['bug'], html_url: `https://github.com/${owner}/${repo}/issues/${issue_number}` });
  } else {
    const sha = rng.hex(40);
    args = JSON.stringify({ owner, repo, sha });
    result = JSON.stringify({ sha, commit: { message: commitMessage(rng) }, html_url: `https://github.com/${owner}/${repo}/commit/${sha}` });
  }
  if (fail) return { name: kind, args, error: 'MCP server github: request failed with status 502 Bad Gateway', dur };
  return { name: kind, args, result, dur };
}

function terminal(env: ToolEnv, fail: boolean): ToolOutcome {
  const { rng, ws } = env;
  const [owner, repo] = ownerRepo(ws);
  const onGitHub = ws.githubRepo !== null;
  const branch = ws.branch ?? 'main';
  const what = rng.weighted<string>([
    ['test', 40],
    ['commit', onGitHub || ws.remoteUrl ? 15 : 0],
    ['pr', onGitHub ? 5 : 0],
    ['issue', onGitHub ? 2 : 0],
    ['status', 15],
    ['tsc', 13],
    ['ls', 10],
  ]);
  let command: string;
  let result: string;
  let dur: number;
  switch (what) {
    case 'test':
      command = 'npm test';
      result = `> vitest run\n\n ✓ test/date.test.ts (${rng.int(2, 30)} tests) ${rng.int(5, 400)}ms\n ✓ test/retry.test.ts (${rng.int(2, 30)} tests)\n\n Test Files  ${rng.int(2, 9)} passed`;
      dur = ms(rng, 4500, 0.6);
      break;
    case 'commit': {
      const msg = commitMessage(rng);
      command = `git add -A && git commit -m ${JSON.stringify(msg)}`;
      result = `[${branch} ${rng.hex(7)}] ${msg}\n ${rng.int(1, 6)} files changed, ${rng.int(1, 80)} insertions(+), ${rng.int(0, 30)} deletions(-)`;
      dur = ms(rng, 400, 0.5);
      break;
    }
    case 'pr':
      command = 'gh pr create --fill';
      result = `Creating pull request for ${branch} into main in ${owner}/${repo}\n\nhttps://github.com/${owner}/${repo}/pull/${rng.int(1, 900)}`;
      dur = ms(rng, 2500, 0.5);
      break;
    case 'issue':
      command = `gh issue create --title ${JSON.stringify(`${identifier(rng)} crashes`)} --body "see logs"`;
      result = `https://github.com/${owner}/${repo}/issues/${rng.int(1, 900)}`;
      dur = ms(rng, 1800, 0.5);
      break;
    case 'status':
      command = 'git status --short';
      result = ` M ${repoFile(rng)}\n M ${repoFile(rng)}\n?? ${repoFile(rng)}`;
      dur = ms(rng, 60, 0.5);
      break;
    case 'tsc':
      command = 'npx tsc --noEmit';
      result = rng.chance(0.5) ? '' : `${repoFile(rng)}(${rng.int(1, 300)},${rng.int(1, 40)}): ${errorText(rng)}`;
      dur = ms(rng, 3000, 0.5);
      break;
    default:
      command = 'ls -la logs/';
      result = `total 8\n-rw-r--r-- 1 dev dev ${rng.int(100, 90000)} app.log`;
      dur = ms(rng, 40, 0.5);
  }
  const args = JSON.stringify({ command, explanation: assistantText(rng, 'en', 1), isBackground: false });
  if (fail) return { name: 'run_in_terminal', args, error: 'Command timed out after 60000 ms', dur: 60_000 + rng.int(0, 900) };
  return { name: 'run_in_terminal', args, result, dur };
}
