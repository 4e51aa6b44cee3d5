// Workspace storage folders and the repositories they point at (FORMAT §1.3, §7.33). The first eight
// workspaces each carry one layout case (percent-encoded URIs, a .code-workspace file, a remote meta.json, no
// metadata at all, a GitLab remote, no .git); the rest are ordinary GitHub checkouts.
import fs from 'node:fs';
import path from 'node:path';
import type { Rng } from './random';

export type Product = 'Code' | 'Code - Insiders';
export const PRODUCTS: readonly Product[] = ['Code', 'Code - Insiders'];

type MetaKind = 'folder' | 'workspace-file' | 'remote' | 'none';

export interface WorkspacePlan {
  index: number;
  product: Product;
  storageId: string;
  /** `<userDataDir>/User/workspaceStorage/<storageId>` */
  storageDir: string;
  /** `<storageDir>/GitHub.copilot-chat/debug-logs` */
  debugLogsDir: string;
  meta: MetaKind;
  /** Folder name under `<outDir>/repos`, or null for the remote workspace (nothing local). */
  dirName: string | null;
  remoteUrl: string | null;
  branch: string | null;
  /** `owner/name` used inside logs (PR URLs, MCP args); null when not a GitHub repo. */
  githubRepo: string | null;
  /** Path prefix used for files inside the logs. Independent of outDir so the JSONL bytes are too. */
  logRoot: string;
  /** Whether this workspace has agent hooks configured (PreToolUse/PostToolUse/Stop lines). */
  hooks: boolean;
}

interface Special {
  dir: string | null;
  remote: string | null;
  branch: string | null;
  meta: MetaKind;
  product: Product;
  hooks: boolean;
}

// One row per layout case. Order matters only in that the first rows are always present.
const SPECIAL: Special[] = [
  { dir: 'chronoscope', remote: 'git@github.com:acme/chronoscope.git', branch: 'main', meta: 'folder', product: 'Code', hooks: true },
  { dir: 'my project', remote: 'https://github.com/acme/my-project.git', branch: 'feature/retry-backoff', meta: 'folder', product: 'Code - Insiders', hooks: false },
  { dir: '日志工具', remote: 'git@github.com:lin-wei/rizhi-tools.git', branch: 'main', meta: 'folder', product: 'Code - Insiders', hooks: true },
  { dir: 'platform', remote: 'https://github.com/acme/platform.git', branch: 'develop', meta: 'workspace-file', product: 'Code', hooks: false },
  { dir: null, remote: null, branch: null, meta: 'remote', product: 'Code', hooks: false },
  { dir: 'orphan-window', remote: 'git@github.com:acme/orphan-window.git', branch: 'main', meta: 'none', product: 'Code - Insiders', hooks: false },
  { dir: 'infra-tools', remote: 'https://gitlab.example.com/platform/infra-tools.git', branch: 'main', meta: 'folder', product: 'Code', hooks: false },
  { dir: 'scratchpad', remote: null, branch: null, meta: 'folder', product: 'Code', hooks: false },
];

const EXTRA_NAMES = [
  ['acme', 'ws-gateway'],
  ['acme', 'billing-api'],
  ['kaito-dev', 'date-utils'],
  ['acme', 'docs-site'],
  ['mobile-team', 'mobile-app'],
  ['acme', 'ml-pipeline'],
  ['jisoo', 'log-shipper'],
  ['acme', 'search-service'],
  ['open-tools', 'lru-kit'],
  ['acme', 'admin-console'],
  ['acme', 'payments'],
  ['zhang-lab', 'pan-store'],
  ['acme', 'notifier'],
  ['acme', 'feature-flags'],
  ['acme', 'etl-jobs'],
  ['acme', 'design-system'],
] as const;

const BRANCHES = ['main', 'main', 'main', 'master', 'develop', 'fix/retry-loop', 'feat/timeline'];

function githubNwo(url: string | null): string | null {
  const m = url?.match(/github\.com[:/]([^/]+)\/(.+?)(?:\.git)?$/);
  return m ? `${m[1]}/${m[2]}` : null;
}

export function planWorkspaces(rng: Rng, outDir: string, count: number): WorkspacePlan[] {
  const plans: WorkspacePlan[] = [];
  for (let i = 0; i < count; i++) {
    let s: Special;
    if (i < SPECIAL.length) s = SPECIAL[i];
    else {
      const [owner, name] = EXTRA_NAMES[(i - SPECIAL.length) % EXTRA_NAMES.length];
      const lap = Math.floor((i - SPECIAL.length) / EXTRA_NAMES.length);
      const dir = lap ? `${name}-${lap + 1}` : name;
      const remote = rng.chance(0.5) ? `git@github.com:${owner}/${dir}.git` : `https://github.com/${owner}/${dir}.git`;
      s = { dir, remote, branch: rng.pick(BRANCHES), meta: 'folder', product: PRODUCTS[i % 2], hooks: rng.chance(0.6) };
    }
    const storageId = rng.hex(32);
    const storageDir = path.join(outDir, s.product, 'User', 'workspaceStorage', storageId);
    plans.push({
      index: i,
      product: s.product,
      storageId,
      storageDir,
      debugLogsDir: path.join(storageDir, 'GitHub.copilot-chat', 'debug-logs'),
      meta: s.meta,
      dirName: s.dir,
      remoteUrl: s.remote,
      branch: s.branch,
      githubRepo: githubNwo(s.remote),
      logRoot: s.dir === null ? '/home/dev/api-server' : `/home/dev/code/${s.dir}`,
      hooks: s.hooks,
    });
  }
  return plans;
}

/** `file://` URI the way VS Code's URI.toString() writes it: every path segment percent-encoded. */
export function fileUri(fsPath: string): string {
  return 'file://' + fsPath.split('/').map(encodeURIComponent).join('/');
}

export interface WorkspaceFacts {
  storageDir: string;
  folder: string | null;
  repository: string | null;
  branch: string | null;
}

/**
 * Writes the storage folder metadata and the repository it points at. Returns what a correct indexer should
 * derive: `folder` is the decoded local path named by workspace.json (for a multi-root workspace, the
 * .code-workspace file; its repository is the checkout that holds it); `repository` is the origin URL exactly
 * as .git/config has it; all three are null when nothing local identifies the workspace.
 */
export function writeWorkspace(ws: WorkspacePlan, outDir: string): WorkspaceFacts {
  fs.mkdirSync(ws.debugLogsDir, { recursive: true });
  const facts: WorkspaceFacts = { storageDir: ws.storageDir, folder: null, repository: null, branch: null };
  if (ws.meta === 'remote') {
    const meta = { id: ws.storageId, name: 'api-server [SSH: devbox]' };
    fs.writeFileSync(path.join(ws.storageDir, 'meta.json'), JSON.stringify(meta, null, 2));
    return facts;
  }
  const repoDir = path.join(outDir, 'repos', ws.dirName!);
  writeRepository(repoDir, ws);
  if (ws.meta === 'none') return facts;
  const target = ws.meta === 'workspace-file' ? writeCodeWorkspace(repoDir, ws.dirName!) : repoDir;
  const key = ws.meta === 'workspace-file' ? 'workspace' : 'folder';
  fs.writeFileSync(path.join(ws.storageDir, 'workspace.json'), JSON.stringify({ [key]: fileUri(target) }, null, 2));
  facts.folder = target;
  facts.repository = ws.remoteUrl;
  facts.branch = ws.remoteUrl === null ? null : ws.branch;
  return facts;
}

function writeRepository(repoDir: string, ws: WorkspacePlan): void {
  fs.mkdirSync(path.join(repoDir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(repoDir, 'README.md'), `# ${ws.dirName}\n\nSynthetic checkout for the Chronoscope corpus.\n`);
  fs.writeFileSync(path.join(repoDir, 'src', 'index.ts'), `export const name = ${JSON.stringify(ws.dirName)};\n`);
  if (ws.remoteUrl === null) return; // the "no .git at all" case
  const git = path.join(repoDir, '.git');
  fs.mkdirSync(git, { recursive: true });
  const branch = ws.branch ?? 'main';
  fs.writeFileSync(path.join(git, 'HEAD'), `ref: refs/heads/${branch}\n`);
  fs.writeFileSync(
    path.join(git, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n' +
      `[remote "origin"]\n\turl = ${ws.remoteUrl}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n` +
      `[branch "${branch}"]\n\tremote = origin\n\tmerge = refs/heads/${branch}\n`,
  );
}

function writeCodeWorkspace(repoDir: string, name: string): string {
  fs.mkdirSync(path.join(repoDir, 'packages', 'api'), { recursive: true });
  fs.mkdirSync(path.join(repoDir, 'packages', 'web'), { recursive: true });
  const file = path.join(repoDir, `${name}.code-workspace`);
  const content = { folders: [{ path: '.' }, { path: 'packages/api' }, { path: 'packages/web' }], settings: {} };
  fs.writeFileSync(file, JSON.stringify(content, null, 2) + '\n');
  return file;
}
