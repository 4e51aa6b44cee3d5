import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsProblem } from './fs-problem';

describe('fsProblem', () => {
  it('says what the errors a person meets mean, the path first', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-problem-'));
    const file = path.join(dir, 'f.json');
    fs.writeFileSync(file, '{}');
    const problem = (f: () => unknown, p: string) => {
      try {
        f();
      } catch (err) {
        return fsProblem(p, err);
      }
      return null;
    };
    expect(problem(() => fs.readFileSync(path.join(dir, 'missing.json')), path.join(dir, 'missing.json'))).toBe(`${dir}/missing.json does not exist`);
    expect(problem(() => fs.readFileSync(dir), dir)).toBe(`${dir} is a folder, not a file`);
    expect(problem(() => fs.readdirSync(file), file)).toBe(`${file} is not a folder`);
    expect(fsProblem('/x', Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))).toBe('/x is not readable (permission denied)');
    expect(fsProblem('/x', new Error('EIO: i/o error, read'))).toBe('/x: EIO: i/o error, read');
    fs.rmSync(dir, { recursive: true });
  });
});
