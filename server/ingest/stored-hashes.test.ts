import { describe, expect, it } from 'vitest';
import { copyKey } from './copy-key';
import { normalizeEntry } from './normalize';
import { promptHash } from './process-line';
import { hashBytes } from './reconcile';

// Hashes the archive stores (prompt_docs.hash, copy_keys.key) or compares across restarts (a rewritten file's
// lines): computed another way, they would split a session's prompts and copies from those already written.
// The expected values are from Python's hashlib over the same UTF-8 bytes.
describe('stored hashes', () => {
  it('promptHash: the first 8 bytes of the SHA-1 of the UTF-8 text', () => {
    expect(promptHash('Speed up parseConfigFile; 落盘 😀').toString('hex')).toBe('6d7000159cdeb9ad');
  });

  it('copyKey: the first 8 bytes of the SHA-1 of the entry as JSON without sid and rIdx, as a signed 64-bit integer', () => {
    const ev = normalizeEntry({ ts: 1775000000000, dur: 3, sid: 's1', rIdx: 4, type: 'discovery', name: 'discovery', spanId: '0000000000000001', status: 'ok', attrs: { details: 'found 3 agents' } });
    expect(copyKey(ev)).toBe(-7206117843723127917n);
  });

  it('hashBytes: the first 6 bytes of the MD5 of the bytes', () => {
    expect(hashBytes(Buffer.from('{"ts":1}'))).toBe(236074113021341);
  });
});
