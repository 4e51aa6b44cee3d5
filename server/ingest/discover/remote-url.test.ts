import { describe, expect, it } from 'vitest';
import { remoteUrlWithoutCredentials, repositoryFromRemote } from './remote-url';

describe('repositoryFromRemote', () => {
  it.each([
    // GitHub: scp-like ssh, https with and without .git, ssh:// with a port, a token as user, an ssh alias host
    ['git@github.com:o/r.git', 'o/r'],
    ['https://github.com/o/r', 'o/r'],
    ['https://github.com/o/r.git/', 'o/r'],
    ['ssh://git@github.com/o/r.git', 'o/r'],
    ['ssh://git@ssh.github.com:443/o/r.git', 'o/r'],
    ['https://x-access-token:ghp_secret@github.com/o/r.git', 'o/r'],
    ['git@github.com-work:o/r.git', 'o/r'],
    ['  https://GitHub.com/Owner/Repo.git\n', 'Owner/Repo'],
    // GitLab keeps subgroups
    ['https://user:tok@gitlab.com/g/sub/r.git', 'g/sub/r'],
    ['git@gitlab.com:g/r.git', 'g/r'],
    // Bitbucket
    ['git@bitbucket.org:team/r.git', 'team/r'],
    ['https://me@bitbucket.org/team/r.git', 'team/r'],
    // Azure DevOps, new and old hosts, https and ssh
    ['https://org@dev.azure.com/org/proj/_git/r', 'org/proj/r'],
    ['git@ssh.dev.azure.com:v3/org/proj/r', 'org/proj/r'],
    ['https://org.visualstudio.com/proj/_git/r', 'org/proj/r'],
    ['https://org.visualstudio.com/DefaultCollection/proj/_git/r', 'org/proj/r'],
    // other hosts: the URL itself, credentials stripped
    ['https://git.corp.example/x/y.git', 'https://git.corp.example/x/y.git'],
    ['https://alice:s3cret@git.corp.example:8443/x/y.git', 'https://git.corp.example:8443/x/y.git'],
    ['git@git.corp.example:x/y.git', 'git@git.corp.example:x/y.git'],
    // local remotes are paths, not hosts
    ['/srv/git/y.git', '/srv/git/y.git'],
    ['C:\\repos\\y', 'C:\\repos\\y'],
    ['file:///srv/git/y.git', 'file:///srv/git/y.git'],
    // a known host without owner/name falls back to the URL
    ['https://github.com/o', 'https://github.com/o'],
  ])('%s → %s', (url, expected) => {
    expect(repositoryFromRemote(url)).toBe(expected);
  });
});

describe('remoteUrlWithoutCredentials', () => {
  it('removes user and password from URL forms, keeps scp-like remotes as written', () => {
    expect(remoteUrlWithoutCredentials('https://u:p@github.com/o/r.git')).toBe('https://github.com/o/r.git');
    expect(remoteUrlWithoutCredentials('ssh://git@host:2222/o/r.git')).toBe('ssh://host:2222/o/r.git');
    expect(remoteUrlWithoutCredentials('git@github.com:o/r.git')).toBe('git@github.com:o/r.git');
  });
});
