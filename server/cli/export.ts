import fs from 'node:fs';
import path from 'node:path';
import type { Options } from '../config';
import { fsProblem } from '../fs-problem';
import { exportMarkdown, DEFAULT_MARKDOWN_CHARS } from '../export/markdown';
import { ExportTooLargeError, otlpJsonDocument, otlpJsonParts } from '../export/otlp-json';
import { flag } from '../triage/cli-args';
import { CliError } from './cli-error';
import { readIndex } from './open-index';
import { noSuchSession, resolveSessionId } from './session-id';

/**
 * `chronoscope export SESSION_ID [--format otlp|md] [-o FILE] [--split] [--max-chars 30000]`: OTLP JSON that VS
 * Code's Agent Debug Log panel imports and collectors accept, or Markdown for an issue or an LLM. Exit 0 written,
 * 2 bad input (flag, unknown session id, size over 50 MB without --split), as every command (cli-error.ts).
 */
export async function runExport(opts: Options): Promise<number> {
  const wanted = opts.positionals[0];
  const format = flag(opts, 'format') ?? 'otlp';
  const outFile = flag(opts, 'out');
  const maxCharsFlag = flag(opts, 'max-chars');
  if (!wanted) {
    process.stderr.write('chronoscope export: which session? `chronoscope export SESSION_ID [--format otlp|md] [-o FILE]`\n');
    return 2;
  }
  if (format !== 'otlp' && format !== 'md') {
    process.stderr.write(`chronoscope export: --format is otlp or md, not "${format}"\n`);
    return 2;
  }
  const maxChars = maxCharsFlag === undefined ? DEFAULT_MARKDOWN_CHARS : Number(maxCharsFlag);
  if (!Number.isInteger(maxChars) || maxChars < 1000) {
    process.stderr.write('chronoscope export: --max-chars is a whole number of at least 1000\n');
    return 2;
  }
  return readIndex(opts, (db) => {
    const id = resolveSessionId(db, wanted);
    if (format === 'md') {
      const md = exportMarkdown(db, id, { maxChars });
      if (md === null) throw noSuchSession(id);
      write(outFile, md);
      return 0;
    }
    if (opts.flags.split === true) {
      const parts = otlpJsonParts(db, id);
      if (parts === null) throw noSuchSession(id);
      return writeParts(outFile, parts);
    }
    let doc;
    try {
      doc = otlpJsonDocument(db, id);
    } catch (err) {
      if (err instanceof ExportTooLargeError) {
        process.stderr.write(`chronoscope export: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
    if (doc === null) throw noSuchSession(id);
    write(outFile, doc);
    return 0;
  });
}

/**
 * The parts of a split export, each written as soon as it is made. Whether there are several (FILE-1.json,
 * FILE-2.json, …) or one (FILE, or stdout without -o) is known only at the second: the first goes to a file of its
 * own meanwhile (FILE.partial, renamed when the second comes or the export ends), not held in memory beside the
 * second (~48 MB each, a sixth of the largest family's peak RSS). Without -o it is held: stdout cannot be taken back.
 */
export function writeParts(outFile: string | undefined, parts: Iterable<Uint8Array[]>): number {
  if (outFile === undefined) return printOnePart(parts);
  const ext = path.extname(outFile);
  const stem = outFile.slice(0, outFile.length - ext.length);
  const nth = (i: number) => `${stem}-${i}${ext || '.json'}`;
  const firstFile = `${outFile}.partial`;
  let n = 0;
  let written = false;
  try {
    for (const part of parts) {
      n++;
      if (n === 2) fs.renameSync(firstFile, nth(1));
      writeChunks(n === 1 ? firstFile : nth(n), part);
    }
    if (n === 1) fs.renameSync(firstFile, outFile);
    written = true;
  } finally {
    // failed before a second part: the first one's file is the export of nothing
    if (!written && n === 1) fs.rmSync(firstFile, { force: true });
  }
  process.stderr.write(n === 1 ? `wrote ${outFile}\n` : `wrote ${n} parts: ${nth(1)} … ${nth(n)}\n`);
  return 0;
}

/** A split export to stdout: its one part, or exit 2 at the second (the parts need files). */
function printOnePart(parts: Iterable<Uint8Array[]>): number {
  let first: Uint8Array[] | null = null;
  for (const part of parts) {
    if (first !== null) {
      process.stderr.write(`chronoscope export: the export is over VS Code's 50 MB import limit and comes in parts: name a file with -o and they are written as FILE-1.json, FILE-2.json, …\n`);
      return 2;
    }
    first = part;
  }
  write(undefined, first ?? []);
  return 0;
}

function writeChunks(file: string, chunks: Uint8Array[]): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'w');
  } catch (err) {
    throw new CliError('cannot_write', `cannot write ${file}: ${whyNotWritable(file, err)}`);
  }
  try {
    for (const c of chunks) fs.writeSync(fd, c);
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a file could not be made, in words: its folder missing, a folder in its place, no permission. */
function whyNotWritable(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return 'it is a folder';
  // fsProblem's words are a read's ("is not readable")
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  // the file's folder is missing, or part of its path is a file
  if (code === 'ENOENT' || code === 'ENOTDIR') return fsProblem(path.dirname(file), err);
  return fsProblem(file, err);
}

/** The text (or its chunks) to stdout, ending with a line break, or to the file. */
function write(outFile: string | undefined, text: string | Uint8Array[]): void {
  const chunks = typeof text === 'string' ? [Buffer.from(text)] : text;
  if (!outFile) {
    for (const c of chunks) process.stdout.write(c);
    const last = chunks[chunks.length - 1];
    if (last === undefined || last[last.length - 1] !== 0x0a) process.stdout.write('\n');
    return;
  }
  writeChunks(outFile, chunks);
  process.stderr.write(`wrote ${outFile}\n`);
}
