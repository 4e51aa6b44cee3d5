// Test helper: throwaway directory trees. Not imported by production code.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** Returns a factory of fresh temp directories that are removed after each test. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'chronoscope-discover-')));
    made.push(dir);
    return dir;
  };
}

/** Writes `{ 'a/b.txt': 'text', 'c/': null }`: a string is a file's content, null (or a trailing /) a directory. */
export async function writeTree(root: string, entries: Record<string, string | null>): Promise<void> {
  for (const [rel, content] of Object.entries(entries)) {
    const full = path.join(root, rel);
    if (content === null || rel.endsWith('/')) {
      await mkdir(full, { recursive: true });
    } else {
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, content);
    }
  }
}
