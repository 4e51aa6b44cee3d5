import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_RECORD, pruneBuild } from './prune-build.mjs';

const dirs: string[] = [];
function outDir(files: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prune-build-'));
  dirs.push(dir);
  for (const f of files) fs.writeFileSync(path.join(dir, f), f);
  return dir;
}
const names = (dir: string) => fs.readdirSync(dir).sort();
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('pruneBuild', () => {
  it('keeps this build and the one before it, and deletes older chunks', () => {
    const dir = outDir(['main.js', 'chunk-A.js', 'chunk-B.js']);
    // the first build with a record keeps nothing it did not write
    expect(pruneBuild(dir, [path.join(dir, 'main.js'), path.join(dir, 'chunk-A.js')])).toEqual(['chunk-B.js']);
    fs.writeFileSync(path.join(dir, 'chunk-C.js'), 'C');
    // second build: chunk-A of the build before stays (a server started on it may still import it)
    expect(pruneBuild(dir, [path.join(dir, 'main.js'), path.join(dir, 'chunk-C.js')])).toEqual([]);
    expect(names(dir)).toEqual([BUILD_RECORD, 'chunk-A.js', 'chunk-C.js', 'main.js']);
    fs.writeFileSync(path.join(dir, 'chunk-D.js'), 'D');
    // third build: chunk-A is two builds old
    expect(pruneBuild(dir, [path.join(dir, 'main.js'), path.join(dir, 'chunk-D.js')])).toEqual(['chunk-A.js']);
    expect(names(dir)).toEqual([BUILD_RECORD, 'chunk-C.js', 'chunk-D.js', 'main.js']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, BUILD_RECORD), 'utf8'))).toEqual(['chunk-D.js', 'main.js']);
  });

  it('takes paths relative to the working folder, as esbuild writes them, and leaves folders alone', () => {
    const dir = outDir(['main.js', 'old.js']);
    fs.mkdirSync(path.join(dir, 'sub'));
    expect(pruneBuild(dir, [path.relative(process.cwd(), path.join(dir, 'main.js'))])).toEqual(['old.js']);
    expect(names(dir)).toEqual([BUILD_RECORD, 'main.js', 'sub']);
  });

  it('reads a damaged record as no record', () => {
    const dir = outDir(['main.js', 'old.js']);
    fs.writeFileSync(path.join(dir, BUILD_RECORD), '{not json');
    expect(pruneBuild(dir, [path.join(dir, 'main.js')])).toEqual(['old.js']);
  });
});
