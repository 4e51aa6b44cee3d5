// C0/C1 controls (ANSI escapes start with ESC), DEL, zero-width and bidi format characters: shown as visible
// escapes, so that log text can neither hide part of itself nor display in another order than it is stored
// (an RLO in a file name). Used for every label the server derives from log text and by the UI's views.
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Log text with invisible and reordering characters made visible (`\u{202e}`); render the result as text. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (ch) => `\\u{${(ch.codePointAt(0) as number).toString(16).padStart(4, '0')}}`);
}
