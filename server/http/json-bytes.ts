import type { Context } from 'hono';

const encoder = new TextEncoder();

/**
 * A value as the body `c.json` sends: the UTF-8 of its JSON. A read worker encodes its answer so (read-worker.ts) and
 * hands the bytes over whole, instead of an object graph the event loop would rebuild from a structured clone and
 * then stringify: during the bench's bursts of 200 queries, those graphs were what the main thread's 8 MB young
 * generation scavenged, ~12% of its time, and what made /api/health wait (issue 19.4).
 */
export function encodeJson(value: unknown): Uint8Array<ArrayBuffer> {
  return value instanceof EncodedJson ? value.bytes : (encoder.encode(JSON.stringify(value)) as Uint8Array<ArrayBuffer>);
}

/**
 * An answer made as JSON bytes in the first place (the OTLP export, written by the serializer): encodeJson passes it
 * on as it is, instead of a value decoded from those bytes only to be encoded again.
 */
export class EncodedJson {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** the pieces, in order, copied into one buffer of their own (a read worker transfers it whole) */
  constructor(pieces: readonly Uint8Array[]) {
    this.bytes = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of pieces) {
      this.bytes.set(p, at);
      at += p.byteLength;
    }
  }
}

/** The bytes each encoded answer was made of, for the response cache (it would read them back from the Response). */
const bodies = new WeakMap<Response, Uint8Array<ArrayBuffer>>();

/** A 200 of JSON already encoded, with c.json's header. */
export function jsonBody(c: Context, bytes: Uint8Array<ArrayBuffer>): Response {
  const res = c.body(bytes, 200, { 'Content-Type': 'application/json' });
  bodies.set(res, bytes);
  return res;
}

/** The encoded body of a response made by jsonBody, without reading the response. */
export function encodedBody(res: Response): Uint8Array<ArrayBuffer> | undefined {
  return bodies.get(res);
}
