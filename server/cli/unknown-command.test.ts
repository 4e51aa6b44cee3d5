import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The command name is the first thing a user types: one named like an Object.prototype member is unknown too.
describe('chronoscope <unknown command>', () => {
  it('exits 2 naming the command and listing the real ones, for Object.prototype names as well', () => {
    for (const name of ['nosuch', 'constructor', 'toString']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.resolve('server/main.ts'), name], { encoding: 'utf8', timeout: 60_000 });
      expect([name, r.status]).toEqual([name, 2]);
      expect(r.stderr).toMatch(new RegExp(`^chronoscope: unknown command "${name}"\\. Commands: serve, index, `));
    }
  }, 120_000);
});
