// An SQL function, chronoscope_malloc_trim(), added to better-sqlite3's SQLite: glibc's malloc_trim(0), which gives the
// system back the free memory of every malloc arena. Imported by scripts/sqlite-patches.mjs; no side effects.
//
// Why: the server runs with one malloc arena (server/launch-flags.ts, MALLOC_ARENA_MAX=1). What its threads free
// (SQLite's pages and statements, zlib's streams, V8's array buffers and external strings) stays in that arena, and
// glibc returns only the free memory at its top. After a backfill of the 0.25x bench corpus, malloc_trim(0) called
// through gdb took the idle server from 169.5 to 129.7 MB of RSS (anonymous 117.9 -> 78.1 MB): a third of it was
// free memory held for nothing. Node has no way to call it (no FFI); SQLite is the native code we already build.
// Elsewhere than glibc (musl, macOS, Windows) the function exists and returns -1: nothing to trim that way.

/** The builtin function table's entry after which ours goes, as SQLite 3.53 writes it. */
export const TABLE_ANCHOR = '    VFUNCTION(randomblob,        1, 0, 0, randomBlob       ),\n';
/** The function that fills that table: ours is defined just before it. */
export const DEFINITION_ANCHOR = 'SQLITE_PRIVATE void sqlite3RegisterBuiltinFunctions(void){\n';

/** Marks an amalgamation that has been patched (so a second run leaves it alone). */
export const MARKER = 'chronoscope: malloc_trim as an SQL function';

export const DEFINITION = `/* ${MARKER} (scripts/malloc-trim-patch.mjs) */
#if defined(__GLIBC__)
#include <malloc.h>
#endif
static void chronoscopeMallocTrimFunc(sqlite3_context *context, int NotUsed, sqlite3_value **NotUsed2){
  UNUSED_PARAMETER2(NotUsed, NotUsed2);
#if defined(__GLIBC__)
  sqlite3_result_int(context, malloc_trim(0));
#else
  sqlite3_result_int(context, -1);
#endif
}

`;

/** volatile (VFUNCTION): evaluated at every call, never folded into a constant */
export const TABLE_ENTRY = '    VFUNCTION(chronoscope_malloc_trim, 0, 0, 0, chronoscopeMallocTrimFunc),\n';

/**
 * The amalgamation's text with the function added. `state`: 'patched' (changed now), 'already' (patched before),
 * 'unknown' (an anchor missing or repeated: another SQLite version; left as it is, and the caller says so).
 */
export function patchMallocTrim(source) {
  if (source.includes(MARKER)) return { state: 'already', source };
  const table = source.indexOf(TABLE_ANCHOR);
  const definition = source.indexOf(DEFINITION_ANCHOR);
  const once = (anchor, at) => at !== -1 && source.indexOf(anchor, at + 1) === -1;
  if (!once(TABLE_ANCHOR, table) || !once(DEFINITION_ANCHOR, definition) || definition > table) return { state: 'unknown', source };
  const afterEntry = table + TABLE_ANCHOR.length;
  return {
    state: 'patched',
    source: source.slice(0, definition) + DEFINITION + source.slice(definition, afterEntry) + TABLE_ENTRY + source.slice(afterEntry),
  };
}
