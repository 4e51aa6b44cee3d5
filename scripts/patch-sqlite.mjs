#!/usr/bin/env node
// npm's postinstall: rebuilds better-sqlite3's SQLite with our patches (scripts/sqlite-patches.mjs lists them: FTS5's
// term hash, where half of the search thread's CPU went to walking the hash's chains; and malloc_trim as an SQL
// function, to give the system back what the threads freed). Never breaks an install: the patched copy is built in a
// temporary folder and replaces the module's binary only once it has built and loads; otherwise the stock SQLite
// stays, correct, and a warning says what that costs. A stamp beside the binary (the binary's SHA-1 and the patches
// it carries) makes a second run a no-op until npm installs or rebuilds the module again, or a patch is added.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installed, patchesInstalled, patchSqlite, PATCHES, stampFor } from './sqlite-patches.mjs';

const { moduleDir, binary, stamp: STAMP } = installed();
const say = (text) => console.log(`chronoscope: ${text}`);
const warn = (text, files = PATCHES.map((p) => p.file)) => {
  const lost = PATCHES.filter((p) => files.includes(p.file)).map((p) => p.without);
  console.warn(`chronoscope: ${text}; without it ${lost.join('; ')}`);
};

/** npm's own node-gyp (npm names it to lifecycle scripts), else the one beside this node, else one on the PATH. */
function nodeGyp() {
  const candidates = [process.env.npm_config_node_gyp, path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')];
  for (const c of candidates) if (c && fs.existsSync(c)) return [process.execPath, c];
  return ['node-gyp'];
}

/** Node's headers when they sit beside this node (Debian's /usr/include/node): node-gyp then needs no download. */
function nodeDirArgs() {
  if (process.env.npm_config_nodedir) return [];
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return fs.existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? [`--nodedir=${prefix}`] : [];
}

function main() {
  if (!fs.existsSync(binary)) return warn(`no better-sqlite3 binary at ${binary}: nothing to patch`);
  const source = fs.readFileSync(path.join(moduleDir, 'deps', 'sqlite3', 'sqlite3.c'), 'utf8');
  const patched = patchSqlite(source);
  for (const file of patched.unknown) warn(`this better-sqlite3's SQLite is not the one ${file} patches`, [file]);
  if (patched.applied.length === 0) return;
  const have = patchesInstalled();
  if (have.length === patched.applied.length && patched.applied.every((f) => have.includes(f))) return; // done before
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-sqlite-'));
  try {
    for (const entry of ['binding.gyp', 'package.json', 'src', 'deps']) fs.cpSync(path.join(moduleDir, entry), path.join(work, entry), { recursive: true });
    fs.writeFileSync(path.join(work, 'deps', 'sqlite3', 'sqlite3.c'), patched.source);
    const what = PATCHES.filter((p) => patched.applied.includes(p.file)).map((p) => p.what).join(' and ');
    say(`building better-sqlite3 with ${what} patched (about a minute)`);
    const started = Date.now();
    const [cmd, ...args] = nodeGyp();
    const r = spawnSync(cmd, [...args, 'rebuild', '--release', ...nodeDirArgs()], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
    if (r.status !== 0 || !fs.existsSync(built)) return warn(`node-gyp failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`);
    // it must load in this node before it replaces anything
    const probes = PATCHES.filter((p) => patched.applied.includes(p.file)).map((p) => `db.exec(${JSON.stringify(p.probe)});`);
    const check = spawnSync(process.execPath, ['-e', `const D = require(${JSON.stringify(path.join(moduleDir, 'lib', 'index.js'))}); const db = new D(':memory:', { nativeBinding: ${JSON.stringify(built)} }); ${probes.join(' ')}`], { encoding: 'utf8' });
    if (check.status !== 0) return warn(`the patched build does not load: ${check.stderr.trim().split('\n')[0]}`);
    fs.copyFileSync(built, `${binary}.patched`);
    fs.renameSync(`${binary}.patched`, binary);
    fs.writeFileSync(STAMP, stampFor(binary, patched.applied));
    say(`better-sqlite3 rebuilt with ${what} patched in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
