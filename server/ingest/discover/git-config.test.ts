import { describe, expect, it } from 'vitest';
import { parseGitConfig, pickRemoteUrl } from './git-config';

describe('parseGitConfig', () => {
  it('reads sections, subsections, quoted values, escapes and comments', () => {
    const entries = parseGitConfig(
      [
        '[core]',
        '\tbare = false ; trailing comment',
        '\tfilemode',
        '# a comment line',
        '[remote "origin"]',
        '\turl = "https://example.com/a b.git" # quoted, with a space',
        '\tfetch = +refs/heads/*:refs/remotes/origin/*',
        '[Remote "Up\\"stream"]',
        '\tURL = git@h:o/r.git',
        '[branch.main]',
        '\tremote = origin',
      ].join('\n'),
    );
    expect(entries).toEqual([
      { section: 'core', subsection: null, key: 'bare', value: 'false' },
      { section: 'core', subsection: null, key: 'filemode', value: 'true' },
      { section: 'remote', subsection: 'origin', key: 'url', value: 'https://example.com/a b.git' },
      { section: 'remote', subsection: 'origin', key: 'fetch', value: '+refs/heads/*:refs/remotes/origin/*' },
      { section: 'remote', subsection: 'Up"stream', key: 'url', value: 'git@h:o/r.git' },
      { section: 'branch', subsection: 'main', key: 'remote', value: 'origin' },
    ]);
  });

  it('tolerates CRLF line endings and keys before any section', () => {
    expect(parseGitConfig('stray = 1\r\n[remote "o"]\r\n\turl = u\r\n')).toEqual([
      { section: 'remote', subsection: 'o', key: 'url', value: 'u' },
    ]);
  });
});

describe('pickRemoteUrl', () => {
  it('prefers "origin" wherever it is in the file', () => {
    const config = '[remote "upstream"]\n url = up\n[remote "origin"]\n url = mine\n';
    expect(pickRemoteUrl(parseGitConfig(config))).toBe('mine');
  });

  it('without "origin", takes the first remote', () => {
    const config = '[remote "b"]\n url = first\n[remote "a"]\n url = second\n';
    expect(pickRemoteUrl(parseGitConfig(config))).toBe('first');
  });

  it('no remotes: null', () => {
    expect(pickRemoteUrl(parseGitConfig('[core]\n bare = false\n'))).toBeNull();
  });

  it('applies the longest matching url.<base>.insteadOf rewrite', () => {
    const config = [
      '[url "git@github.com:"]',
      ' insteadOf = gh:',
      '[url "https://github.com/corp/"]',
      ' insteadOf = gh:corp/',
      '[remote "origin"]',
      ' url = gh:corp/r.git',
    ].join('\n');
    expect(pickRemoteUrl(parseGitConfig(config))).toBe('https://github.com/corp/r.git');
  });
});
