import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLineTable, readLines } from './read-lines';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-rl-'));
afterEach(() => fs.rmSync(path.join(dir, 'f.jsonl'), { force: true }));

function read(content: string | Buffer, offset = 0, maxBytes = 1 << 30, size?: number, into?: Buffer) {
  return withFile(content, (fd) => readLines(fd, offset, size ?? fs.fstatSync(fd).size, maxBytes, into));
}

function withFile<T>(content: string | Buffer, f: (fd: number) => T): T {
  const file = path.join(dir, 'f.jsonl');
  fs.writeFileSync(file, content);
  const fd = fs.openSync(file, 'r');
  try {
    return f(fd);
  } finally {
    fs.closeSync(fd);
  }
}

describe('readLines', () => {
  it('returns complete lines with their byte offsets and leaves a partial final line for later', () => {
    const r = read('{"a":1}\n{"b":2}\n{"c":');
    expect(r.lines.map((l) => [l.bytes.toString(), l.byteOffset])).toEqual([
      ['{"a":1}', 0],
      ['{"b":2}', 8],
    ]);
    expect([r.nextOffset, r.partialBytes, r.eof]).toEqual([16, 5, true]);
  });

  it('starts at an offset', () => {
    const r = read('{"a":1}\n{"b":2}\n', 8);
    expect(r.lines.map((l) => l.bytes.toString())).toEqual(['{"b":2}']);
  });

  it('stops after about maxBytes at a line boundary (bounded batches)', () => {
    const r = read('aaaa\nbbbb\ncccc\n', 0, 6);
    expect(r.lines.map((l) => l.bytes.toString())).toEqual(['aaaa', 'bbbb', 'cccc']);
    const big = Array.from({ length: 3000 }, (_, i) => `{"i":${i},"pad":"${'x'.repeat(600)}"}`).join('\n') + '\n';
    const first = read(big, 0, 512 * 1024); // a batch ends at the line boundary after the 1 MiB chunk that passed maxBytes
    expect(first.lines.length).toBeGreaterThan(1000);
    expect(first.lines.length).toBeLessThan(3000);
    expect(first.eof).toBe(false);
    const rest = read(big, first.nextOffset, 1 << 30);
    expect(first.lines.length + rest.lines.length).toBe(3000);
  });

  it('reads lines longer than one 1 MiB chunk whole', () => {
    const long = '{"x":"' + 'y'.repeat(3 * 1024 * 1024) + '"}';
    const r = read(long + '\n{"z":1}\n');
    expect(r.lines.map((l) => l.bytes.length)).toEqual([long.length, 7]);
  });

  it('only reads up to the size it was given (bytes appended during the read wait for the next pass)', () => {
    const r = read('{"a":1}\n{"b":2}\n', 0, 1 << 30, 8);
    expect(r.lines.map((l) => l.bytes.toString())).toEqual(['{"a":1}']);
    expect(r.nextOffset).toBe(8);
  });

  it('returns nothing for an empty file or a file that is one partial line', () => {
    expect(read('').lines).toEqual([]);
    const p = read('{"partial":');
    expect([p.lines.length, p.nextOffset, p.partialBytes]).toEqual([0, 0, 11]);
  });

  it('into a batch slot: the lines complete in it are views of it, a line that continues past it is read whole', () => {
    const slot = Buffer.alloc(32);
    const long = `{"x":"${'y'.repeat(60)}"}`;
    const r = read(`{"a":1}\n{"b":2}\n${long}\n{"c":3}\n`, 0, 1 << 30, undefined, slot);
    expect(r.lines.map((l) => l.bytes.toString())).toEqual(['{"a":1}', '{"b":2}', long, '{"c":3}']);
    // the first two share the slot's memory; the long one (past the slot's 32 bytes) and what follows it are copies
    expect(r.lines.map((l) => l.bytes.buffer === slot.buffer)).toEqual([true, true, false, false]);
    expect(slot.subarray(0, 16).toString()).toBe('{"a":1}\n{"b":2}\n');
  });

  it('lines stay as they were read after the next read reuses the read buffer', () => {
    const first = read('{"a":1}\n{"b":2}\n');
    const second = read('{"x":9}\n{"y":8}\n');
    expect([first.lines.map((l) => l.bytes.toString()), second.lines.map((l) => l.bytes.toString())]).toEqual([
      ['{"a":1}', '{"b":2}'],
      ['{"x":9}', '{"y":8}'],
    ]);
  });

  it('as a LineTable (what a batch holds): each line its offset and length without a Buffer of its own, the same lines', () => {
    const slot = Buffer.alloc(32);
    const long = `{"x":"${'y'.repeat(60)}"}`;
    const content = `{"a":1}\n{"b":2}\n${long}\n{"c":3}\n{"part`;
    const r = withFile(content, (fd) => readLineTable(fd, 8, Buffer.byteLength(content), 1 << 30, slot));
    expect(r.lines.length).toBe(3);
    expect(Array.from({ length: 3 }, (_, i) => [r.lines.byteOffsetOf(i), r.lines.lengthOf(i), r.lines.bytesOf(i).toString()])).toEqual([
      [8, 7, '{"b":2}'],
      [16, long.length, long],
      [17 + long.length, 7, '{"c":3}'],
    ]);
    expect(r.lines.toArray()).toEqual(read(content, 8, 1 << 30, undefined, Buffer.alloc(32)).lines);
    expect([r.nextOffset, r.partialBytes, r.eof]).toEqual([25 + long.length, 6, true]);
  });
});
