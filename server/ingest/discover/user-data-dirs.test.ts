import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs, writeTree } from './test-tree';
import { type DiscoverEnv, defaultEnv, defaultUserDataDirs } from './user-data-dirs';

const newTempDir = useTempDirs();

/** A home directory that does not exist, so no remote-server folders are listed. */
function fakeEnv(platform: NodeJS.Platform, homedir: string, env: Record<string, string> = {}): DiscoverEnv {
  return { platform, homedir, env };
}

const products = (base: string, join: (...p: string[]) => string) =>
  ['Code', 'Code - Insiders', 'VSCodium', 'VSCodium - Insiders', 'Code - OSS'].map((name) => join(base, name));

describe('defaultUserDataDirs', () => {
  it('Linux: ~/.config/<product> when XDG_CONFIG_HOME is unset', () => {
    expect(defaultUserDataDirs(fakeEnv('linux', '/nonexistent/home/me'))).toEqual(
      products('/nonexistent/home/me/.config', path.posix.join),
    );
  });

  it('Linux: $XDG_CONFIG_HOME/<product> replaces ~/.config', () => {
    const dirs = defaultUserDataDirs(fakeEnv('linux', '/nonexistent/home/me', { XDG_CONFIG_HOME: '/xdg' }));
    expect(dirs).toEqual(products('/xdg', path.posix.join));
  });

  it('macOS: ~/Library/Application Support/<product>', () => {
    expect(defaultUserDataDirs(fakeEnv('darwin', '/nonexistent/Users/me'))).toEqual(
      products('/nonexistent/Users/me/Library/Application Support', path.posix.join),
    );
  });

  it('Windows: %APPDATA%\\<product>, joined with backslashes', () => {
    const dirs = defaultUserDataDirs(fakeEnv('win32', 'C:\\nonexistent\\me', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }));
    expect(dirs[0]).toBe('C:\\Users\\me\\AppData\\Roaming\\Code');
    expect(dirs).toEqual(products('C:\\Users\\me\\AppData\\Roaming', path.win32.join));
  });

  it('Windows: without %APPDATA%, %USERPROFILE%\\AppData\\Roaming', () => {
    const dirs = defaultUserDataDirs(fakeEnv('win32', 'C:\\nonexistent\\me', { USERPROFILE: 'D:\\Profiles\\me' }));
    expect(dirs).toContain('D:\\Profiles\\me\\AppData\\Roaming\\Code - Insiders');
    expect(dirs).toEqual(products('D:\\Profiles\\me\\AppData\\Roaming', path.win32.join));
  });

  it('Windows: without %APPDATA% or %USERPROFILE%, the home directory', () => {
    expect(defaultUserDataDirs(fakeEnv('win32', 'C:\\nonexistent\\me'))[0]).toBe('C:\\nonexistent\\me\\AppData\\Roaming\\Code');
  });

  it('VSCODE_PORTABLE comes first as $VSCODE_PORTABLE/user-data, then VSCODE_APPDATA, then the defaults', () => {
    const dirs = defaultUserDataDirs(
      fakeEnv('linux', '/nonexistent/home/me', { VSCODE_PORTABLE: '/opt/vscode/data', VSCODE_APPDATA: '/appdata' }),
    );
    expect(dirs).toEqual([
      '/opt/vscode/data/user-data',
      ...products('/appdata', path.posix.join),
      ...products('/nonexistent/home/me/.config', path.posix.join),
    ]);
  });

  it('VSCODE_APPDATA/<product> comes before the platform defaults (Windows)', () => {
    const dirs = defaultUserDataDirs(fakeEnv('win32', 'C:\\nonexistent\\me', { VSCODE_APPDATA: 'E:\\VSData', APPDATA: 'C:\\AD' }));
    expect(dirs.slice(0, 2)).toEqual(['E:\\VSData\\Code', 'E:\\VSData\\Code - Insiders']);
    expect(dirs.indexOf('C:\\AD\\Code')).toBe(5);
  });

  it('empty override variables are ignored', () => {
    const dirs = defaultUserDataDirs(fakeEnv('linux', '/nonexistent/h', { VSCODE_PORTABLE: '', VSCODE_APPDATA: ' ', XDG_CONFIG_HOME: '' }));
    expect(dirs).toEqual(products('/nonexistent/h/.config', path.posix.join));
  });

  it('remote servers: every ~/.vscode-server* and ~/.vscodium-server* directory found by listing the home dir', async () => {
    const home = await newTempDir();
    await writeTree(home, {
      '.vscode-server/data/': null,
      '.vscode-server-insiders/': null,
      '.vscodium-server/': null,
      '.cursor-server/': null, // not a VS Code build we read
      '.vscode-server-notes.txt': 'a file, not a server',
      '.vscode/': null, // the local extensions folder, not a server
    });
    const dirs = defaultUserDataDirs(fakeEnv('linux', home));
    expect(dirs.slice(5)).toEqual([
      path.join(home, '.vscode-server', 'data'),
      path.join(home, '.vscode-server-insiders', 'data'),
      path.join(home, '.vscodium-server', 'data'),
    ]);
  });

  it('VSCODE_AGENT_FOLDER (a relocated server folder) adds its data dir', () => {
    expect(defaultUserDataDirs(fakeEnv('linux', '/nonexistent/h', { VSCODE_AGENT_FOLDER: '/srv/vsc' }))).toContain('/srv/vsc/data');
  });
});

describe('defaultEnv', () => {
  it('reads the platform, home directory and environment of this process', () => {
    const env = defaultEnv();
    expect(env.platform).toBe(process.platform);
    expect(env.homedir).toBe(os.homedir());
    expect(env.env.PATH).toBe(process.env.PATH);
  });
});
