/**
 * A 53-bit key of a string's exact UTF-16 code units: what SessionPrompts (server/search-index/session-prompts.ts)
 * remembers of each string a session has indexed, instead of the string; and a session's key in prompt_docs.
 *
 * Why not the strings: the set held every message, response and tool call of the session being written (up to
 * MAX_KNOWN_CHARS), so each of those strings lived until the writer moved to another session, long enough to be
 * promoted into the old generation, where only a full collection frees it (heap-watch.ts says what each costs).
 * Without them the ingest worker, which kept the set until the search thread took the prompts over, promoted
 * 117–120 → 73–78 MB in a 0.25× backfill (`--trace-gc-nvp`).
 *
 * Two 32-bit multiply-xor lanes over the code units, each finished with murmur3's mixer and folded into a safe
 * integer (the shape of the well-known cyrb53). A collision would make a prompt string look already written and
 * leave it out of the prompt index: with a session's ~10^4 strings, about one chance in 10^8 a session. Computed in
 * JavaScript because a native digest per string (crypto.hash) costs ~1 µs a call, and a session writes millions.
 */
export function stringKey(s: string): number {
  return stringKeyOfRange(s, 0, s.length);
}

/**
 * `String.prototype.charCodeAt`, called on the string rather than looked up on it: the strings keyed come in every
 * representation V8 has (slices of a packed batch's joined text, concatenations, flat one- and two-byte strings, the
 * JSON parser's internalized keys), each a map of its own, so `s.charCodeAt` saw more than four maps, went
 * megamorphic and was looked up in the stub cache and called generically once per character: in some runs the search
 * thread's largest JavaScript cost (`Builtins_LoadIC_Megamorphic`, 4.6% of its samples in one `perf record` of `index`
 * at 0.25×; in another it stayed polymorphic: which depends on the order the shapes first arrive). Called through a
 * known function, the compiler inlines the character load for any string (3.5× faster on mixed strings alone).
 */
const charCodeAt = String.prototype.charCodeAt;

/**
 * stringKey of `s.slice(start, end)`, without the slice: the search thread keys each string of an event's text in
 * place (session-prompts.ts).
 */
export function stringKeyOfRange(s: string, start: number, end: number): number {
  const length = end - start;
  let h1 = 0x9e3779b9 ^ length;
  let h2 = 0x85ebca6b ^ length;
  for (let i = start; i < end; i++) {
    const c = charCodeAt.call(s, i);
    h1 = Math.imul(h1 ^ c, 0x9e3779b1);
    h2 = Math.imul(h2 ^ c, 0x5f356495);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return (h2 & 0x1fffff) * 0x100000000 + (h1 >>> 0);
}
