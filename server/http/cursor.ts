import { ApiError } from './errors';

/** Opaque keyset cursors: base64url of a JSON array of the sort key values of the last row returned. */
export function encodeCursor(values: (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** A cursor this server did not issue (or one it no longer reads). */
export function foreignCursor(): ApiError {
  return new ApiError(400, 'bad_cursor', 'the cursor is not one this server issued; start again without it');
}

export function decodeCursor(cursor: string | undefined, arity: number): (string | number | null)[] | null {
  if (cursor === undefined || cursor === '') return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === arity) return v as (string | number | null)[];
  } catch {
    /* fall through */
  }
  throw foreignCursor();
}
