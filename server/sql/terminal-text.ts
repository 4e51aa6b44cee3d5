/**
 * Log text printed to a terminal must stay text: an ANSI escape in a prompt could recolour, move the cursor,
 * rewrite the title or hide lines; a bidi override could reorder what is shown. C0 and C1 controls, DEL and
 * bidi/zero-width format characters are shown as visible escapes instead.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\t') return '\\t';
    if (ch === '\r') return '\\r';
    return `\\u{${ch.codePointAt(0)!.toString(16).padStart(4, '0')}}`;
  });
}

/** JSON for a terminal or a pipe: JSON.stringify leaves C1 controls and bidi characters raw; escape them too. */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
