import fs from 'node:fs';
import path from 'node:path';
import type { Options } from '../config';
import { exportMarkdown, DEFAULT_MARKDOWN_CHARS } from '../export/markdown';
import { ExportTooLargeError, otlpJsonDocument, otlpJsonParts } from '../export/otlp-json';
import { flag } from '../triage/cli-args';
import { CliError } from './cli-error';
import { readIndex } from './open-index';

/**
 * `chronoscope export SESSION_ID [--format otlp|md] [-o FILE] [--split] [--max-chars 30000]`: OTLP JSON that VS
 * Code's Agent Debug Log panel imports and collectors accept, or Markdown for an issue or an LLM. Exit 0 written,
 * 2 bad input (flag, unknown session id, size over 50 MB without --split), as every command (cli-error.ts).
 */
export async function runExport(opts: Options): Promise<number> {
  const id = opts.positionals[0];
  const format = flag(opts, 'format') ?? 'otlp';
  const outFile = flag(opts, 'out');
  const maxCharsFlag = flag(opts, 'max-chars');
  if (!id) {
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
    if (format === 'md') {
      const md = exportMarkdown(db, id, { maxChars });
      if (md === null) return notFound(id);
      write(outFile, md);
      return 0;
    }
    if (opts.flags.split === true) {
      const parts = otlpJsonParts(db, id);
      if (parts === null) return notFound(id);
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
    if (doc === null) return notFound(id);
    write(outFile, doc);
    return 0;
  });
}

/**
 * The parts of a split export, each written as soon as it is made: the first is held until the second says whether
 * there are several (FILE-1.json, FILE-2.json, …) or one (FILE, or stdout without -o).
 */
export function writeParts(outFile: string | undefined, parts: Iterable<Uint8Array[]>): number {
  const ext = outFile === undefined ? '' : path.extname(outFile);
  const stem = outFile === undefined ? '' : outFile.slice(0, outFile.length - ext.length);
  const nth = (i: number) => `${stem}-${i}${ext || '.json'}`;
  let first: Uint8Array[] | null = null;
  let n = 0;
  for (const part of parts) {
    n++;
    if (n === 1) {
      first = part;
      continue;
    }
    if (outFile === undefined) {
      process.stderr.write(`chronoscope export: the export is over VS Code's 50 MB import limit and comes in parts: name a file with -o and they are written as FILE-1.json, FILE-2.json, …\n`);
      return 2;
    }
    if (first !== null) writeChunks(nth(1), first);
    first = null;
    writeChunks(nth(n), part);
  }
  if (n === 1 && first !== null) {
    write(outFile, first);
    return 0;
  }
  process.stderr.write(`wrote ${n} parts: ${nth(1)} … ${nth(n)}\n`);
  return 0;
}

function writeChunks(file: string, chunks: Uint8Array[]): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const c of chunks) fs.writeSync(fd, c);
  } finally {
    fs.closeSync(fd);
  }
}

function notFound(id: string): never {
  throw new CliError('not_found', `no session ${id} in the index (\`chronoscope search\` finds ids)`);
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
