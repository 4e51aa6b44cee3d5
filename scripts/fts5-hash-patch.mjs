// The FTS5 pending-terms hash of SQLite's amalgamation, given a hash function that spreads trigrams (docs/CONTRIBUTING.md,
// "The FTS5 hash"). Imported by scripts/sqlite-patches.mjs and a test; no side effects.
//
// FTS5 keeps a commit group's new terms in a hash table before it writes them out as a segment. Its hash of a term
// ((h << 3) ^ h ^ byte, from 13, over the term's bytes) gives a 3-byte trigram one of ~2^16 values and maps tens of
// thousands of distinct trigrams onto a few thousand slots: on the search rows of the bench corpus, 18,936 distinct
// trigrams fell into 5,726 slots, and each token written walked 5.5 entries of its slot's chain on average (a good
// hash: 1.15), each a memcmp and a pointer to another malloc'ed block. sqlite3Fts5HashWrite and memcmp were half of
// the search thread's CPU. The replacement is FNV-1a over the same bytes in the same order with murmur3's 32-bit
// finalizer, in both functions (fts5HashKey hashes a stored key, the term's index byte first; fts5HashKey2 a new
// term and its index byte: they must agree). Only the slot an entry lives in changes: the table is in memory, and
// its terms are sorted before they are written, so nothing on disk depends on it.

/** The two functions as SQLite 3.53 writes them. */
export const ORIGINAL = `static unsigned int fts5HashKey(int nSlot, const u8 *p, int n){
  int i;
  unsigned int h = 13;
  for(i=n-1; i>=0; i--){
    h = (h << 3) ^ h ^ p[i];
  }
  return (h % nSlot);
}

static unsigned int fts5HashKey2(int nSlot, u8 b, const u8 *p, int n){
  int i;
  unsigned int h = 13;
  for(i=n-1; i>=0; i--){
    h = (h << 3) ^ h ^ p[i];
  }
  h = (h << 3) ^ h ^ b;
  return (h % nSlot);
}`;

/** Marks an amalgamation that has been patched (so a second run leaves it alone). */
export const MARKER = 'chronoscope: FTS5 term hash spreads trigrams';

export const PATCHED = `/* ${MARKER} (scripts/fts5-hash-patch.mjs) */
static unsigned int fts5HashMix(unsigned int h){
  h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
  return h;
}

static unsigned int fts5HashKey(int nSlot, const u8 *p, int n){
  int i;
  unsigned int h = 2166136261u;
  for(i=n-1; i>=0; i--){
    h = (h ^ p[i]) * 16777619u;
  }
  return (fts5HashMix(h) % nSlot);
}

static unsigned int fts5HashKey2(int nSlot, u8 b, const u8 *p, int n){
  int i;
  unsigned int h = 2166136261u;
  for(i=n-1; i>=0; i--){
    h = (h ^ p[i]) * 16777619u;
  }
  h = (h ^ b) * 16777619u;
  return (fts5HashMix(h) % nSlot);
}`;

/**
 * The amalgamation's text with the hash replaced. `state`: 'patched' (changed now), 'already' (patched before),
 * 'unknown' (neither form found: another SQLite version; left as it is, and the caller says so).
 */
export function patchFts5Hash(source) {
  if (source.includes(MARKER)) return { state: 'already', source };
  const at = source.indexOf(ORIGINAL);
  if (at === -1 || source.indexOf(ORIGINAL, at + 1) !== -1) return { state: 'unknown', source };
  return { state: 'patched', source: source.slice(0, at) + PATCHED + source.slice(at + ORIGINAL.length) };
}
