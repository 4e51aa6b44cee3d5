import fs from 'node:fs';
import path from 'node:path';
import type { Options } from '../config';
import { exportMarkdown, DEFAULT_MARKDOWN_CHARS } from '../export/markdown';
import { ExportTooLargeError, exportOtlpJson } from '../export/otlp-json';
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
      write(outFile, [md]);
      return 0;
    }
    let docs;
    try {
      docs = exportOtlpJson(db, id, { split: opts.flags.split === true });
    } catch (err) {
      if (err instanceof ExportTooLargeError) {
        process.stderr.write(`chronoscope export: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
    if (docs === null) return notFound(id);
    if (docs.length > 1 && !outFile) {
      process.stderr.write(`chronoscope export: the export has ${docs.length} parts: name a file with -o and they are written as FILE-1.json, FILE-2.json, …\n`);
      return 2;
    }
    write(outFile, docs.map((d) => JSON.stringify(d)));
    return 0;
  });
}

function notFound(id: string): never {
  throw new CliError('not_found', `no session ${id} in the index (\`chronoscope search\` finds ids)`);
}

/** One text to stdout or the file; several to FILE-1.ext, FILE-2.ext, … */
function write(outFile: string | undefined, texts: string[]): void {
  if (!outFile) {
    process.stdout.write(texts[0].endsWith('\n') ? texts[0] : `${texts[0]}\n`);
    return;
  }
  if (texts.length === 1) {
    fs.writeFileSync(outFile, texts[0]);
    process.stderr.write(`wrote ${outFile}\n`);
    return;
  }
  const ext = path.extname(outFile);
  const stem = outFile.slice(0, outFile.length - ext.length);
  texts.forEach((t, i) => fs.writeFileSync(`${stem}-${i + 1}${ext || '.json'}`, t));
  process.stderr.write(`wrote ${texts.length} parts: ${stem}-1${ext || '.json'} … ${stem}-${texts.length}${ext || '.json'}\n`);
}
