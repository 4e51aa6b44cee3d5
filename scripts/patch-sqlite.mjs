#!/usr/bin/env node
// npm's postinstall: rebuilds better-sqlite3's SQLite with FTS5's term hash replaced (scripts/fts5-hash-patch.mjs says
// why: half of the search thread's CPU went to walking the hash's chains). Never breaks an install: the patched copy
// is built in a temporary folder and replaces the module's binary only once it has built and loads; otherwise the stock
// SQLite stays, correct and slower, and a warning says so. A stamp beside the binary (the binary's SHA-1) makes a second
// run a no-op until npm installs or rebuilds the module again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fts5HashPatched, installed, patchFts5Hash, stampFor } from './fts5-hash-patch.mjs';

const { moduleDir, binary, stamp: STAMP } = installed();
const say = (text) => console.log(`chronoscope: ${text}`);
const warn = (text) => console.warn(`chronoscope: ${text}; search indexing runs on the stock SQLite (correct, ~17% more CPU for the trigram index)`);

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
  if (fts5HashPatched()) return; // done before
  const source = fs.readFileSync(path.join(moduleDir, 'deps', 'sqlite3', 'sqlite3.c'), 'utf8');
  const patched = patchFts5Hash(source);
  if (patched.state === 'unknown') return warn("this better-sqlite3's SQLite has another FTS5 hash than the one patched (scripts/fts5-hash-patch.mjs)");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-sqlite-'));
  try {
    for (const entry of ['binding.gyp', 'package.json', 'src', 'deps']) fs.cpSync(path.join(moduleDir, entry), path.join(work, entry), { recursive: true });
    fs.writeFileSync(path.join(work, 'deps', 'sqlite3', 'sqlite3.c'), patched.source);
    say('building better-sqlite3 with the FTS5 term hash patch (about a minute)');
    const started = Date.now();
    const [cmd, ...args] = nodeGyp();
    const r = spawnSync(cmd, [...args, 'rebuild', '--release', ...nodeDirArgs()], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
    if (r.status !== 0 || !fs.existsSync(built)) return warn(`node-gyp failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`);
    // it must load in this node before it replaces anything
    const check = spawnSync(process.execPath, ['-e', `const D = require(${JSON.stringify(path.join(moduleDir, 'lib', 'index.js'))}); new D(':memory:', { nativeBinding: ${JSON.stringify(built)} }).exec("CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'trigram')")`], { encoding: 'utf8' });
    if (check.status !== 0) return warn(`the patched build does not load: ${check.stderr.trim().split('\n')[0]}`);
    fs.copyFileSync(built, `${binary}.patched`);
    fs.renameSync(`${binary}.patched`, binary);
    fs.writeFileSync(STAMP, stampFor(binary));
    say(`better-sqlite3 rebuilt with the FTS5 term hash patch in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
