import { describe, expect, it } from 'vitest';
import { parseUri, percentDecode, uriToPath } from './uri';

describe('uriToPath', () => {
  it('file URI with percent-encoded spaces and CJK', () => {
    expect(uriToPath('file:///home/me/my%20proj%E6%97%A5', 'linux')).toBe('/home/me/my proj日');
  });

  it('Windows drive letter (VS Code encodes the colon) on win32', () => {
    expect(uriToPath('file:///c%3A/Users/me/proj', 'win32')).toBe('c:\\Users\\me\\proj');
  });

  it('UNC share on win32 and on posix', () => {
    expect(uriToPath('file://server/share/proj', 'win32')).toBe('\\\\server\\share\\proj');
    expect(uriToPath('file://server/share/proj', 'linux')).toBe('//server/share/proj');
  });

  it('vscode-remote URIs give the path on the remote', () => {
    expect(uriToPath('vscode-remote://ssh-remote%2Bmy-host/home/me/proj', 'linux')).toBe('/home/me/proj');
    expect(uriToPath('vscode-remote://wsl+Ubuntu/home/me/a%23b', 'win32')).toBe('/home/me/a#b');
  });

  it('a plain path is kept; an empty string is no path', () => {
    expect(uriToPath('/already/a/path', 'linux')).toBe('/already/a/path');
    expect(uriToPath('C:\\x', 'win32')).toBe('C:\\x');
    expect(uriToPath('  ', 'linux')).toBeNull();
  });
});

describe('parseUri', () => {
  it('splits scheme, authority and decoded path; ignores query and fragment', () => {
    expect(parseUri('vscode-remote://dev-container%2B7b22/workspaces/app?x=1#f')).toEqual({
      scheme: 'vscode-remote',
      authority: 'dev-container+7b22',
      path: '/workspaces/app',
    });
  });
});

describe('percentDecode', () => {
  it('leaves malformed escapes as they are', () => {
    expect(percentDecode('a%E6%97b%20c%zz')).toBe('a%E6%97b c%zz');
  });
});
