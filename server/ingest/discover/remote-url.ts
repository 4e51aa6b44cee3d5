interface RemoteParts {
  host: string;
  /** Path without leading/trailing slashes and without `.git`. */
  repoPath: string;
  /** The URL with any `user:password@` removed; for scp-like remotes the remote as written. */
  display: string;
}

/** `scheme://[userinfo@]host[:port][/path]`; the host may be a bracketed IPv6 address. */
const URL_FORM = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]*)(?::(\d*))?([^?#]*)/;
/** scp-like `[user@]host:path` (git treats it so when there is no `://` and no slash before the colon). */
const SCP_FORM = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.+)$/;

/**
 * The repository name a remote URL stands for: `owner/name` on github.com, bitbucket.org and gitlab.com
 * (GitLab keeps its subgroups: `group/sub/name`), `org/project/name` on Azure DevOps. Any other host gives
 * the URL itself without credentials, so two self-hosted remotes never collapse into one name.
 */
export function repositoryFromRemote(url: string): string {
  const parts = splitRemote(url.trim());
  if (!parts) return url.trim();
  return knownHostRepository(parts) ?? parts.display;
}

function splitRemote(url: string): RemoteParts | null {
  const u = URL_FORM.exec(url);
  if (u) {
    const [, scheme, host, port, rest] = u;
    const display = `${scheme}://${host}${port !== undefined ? `:${port}` : ''}${rest}`;
    return { host: host.toLowerCase(), repoPath: trimRepoPath(rest), display };
  }
  const s = SCP_FORM.exec(url);
  // "C:\repo" and "C:/repo" are Windows paths, not host "C".
  if (s && s[1].length > 1) return { host: s[1].toLowerCase(), repoPath: trimRepoPath(s[2]), display: url };
  return null;
}

function trimRepoPath(p: string): string {
  return p
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
}

function knownHostRepository({ host, repoPath }: RemoteParts): string | null {
  const segments = repoPath.split('/').filter(Boolean);
  // ssh config aliases such as `github.com-work` name the same host.
  const base = host.replace(/^(www\.|ssh\.)/, '').replace(/-[^.]*$/, '');
  if (base === 'github.com' || base === 'bitbucket.org') {
    return segments.length >= 2 ? `${segments[0]}/${segments[1]}` : null;
  }
  if (base === 'gitlab.com') return segments.length >= 2 ? segments.join('/') : null;
  return azureDevOpsRepository(host, segments);
}

/**
 * https://dev.azure.com/org/project/_git/repo, git@ssh.dev.azure.com:v3/org/project/repo,
 * https://org.visualstudio.com/[DefaultCollection/]project/_git/repo, org@vs-ssh.visualstudio.com:v3/org/project/repo.
 */
function azureDevOpsRepository(host: string, segments: string[]): string | null {
  if (segments[0] === 'v3' && segments.length >= 4 && (host === 'ssh.dev.azure.com' || host === 'vs-ssh.visualstudio.com')) {
    return segments.slice(1, 4).join('/');
  }
  const git = segments.indexOf('_git');
  if (git < 1 || git + 1 >= segments.length) return null;
  const project = segments[git - 1];
  const repo = segments[git + 1];
  if (host === 'dev.azure.com' && git >= 2) return `${segments[0]}/${project}/${repo}`;
  const org = /^([^.]+)\.visualstudio\.com$/.exec(host)?.[1];
  if (org) return `${org}/${project}/${repo}`;
  return null;
}

/** The remote URL with any `user[:password]@` of a URL form removed (tokens often sit there). */
export function remoteUrlWithoutCredentials(url: string): string {
  return splitRemote(url.trim())?.display ?? url.trim();
}
