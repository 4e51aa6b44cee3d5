// esbuild never empties its output folder, and a split build names its chunks by content hash: every build of a
// changed source left its old chunks in dist/server (674 files, 26 MB in a developer's checkout). They cannot all go
// at once: a server started before this build imports its lazy chunks (the MCP SDK, OpenTelemetry) by the names
// that build gave them, when first needed. So what the build before this one wrote is kept, and anything older goes.
import fs from 'node:fs';
import path from 'node:path';

/** The file in the output folder that lists what the latest build wrote there. */
export const BUILD_RECORD = '.build-outputs.json';

/**
 * Deletes every file of `dir` that neither this build (`written`, paths as esbuild's metafile gives them, relative
 * to the working folder) nor the build before it wrote, then records this build's files. Returns the names deleted.
 */
export function pruneBuild(dir, written) {
  const ours = written.map((p) => path.relative(dir, path.resolve(p))).filter((n) => !n.startsWith('..') && !path.isAbsolute(n));
  const recordPath = path.join(dir, BUILD_RECORD);
  let before = [];
  try {
    const parsed = JSON.parse(fs.readFileSync(recordPath, 'utf8'));
    if (Array.isArray(parsed)) before = parsed.filter((n) => typeof n === 'string');
  } catch {
    // no record (the first build here, or one from before records were kept): keep nothing older than this build
  }
  const keep = new Set([...ours, ...before, BUILD_RECORD]);
  const deleted = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || keep.has(entry.name)) continue;
    fs.rmSync(path.join(dir, entry.name), { force: true });
    deleted.push(entry.name);
  }
  fs.writeFileSync(recordPath, `${JSON.stringify(ours.sort(), null, 1)}\n`);
  return deleted.sort();
}
