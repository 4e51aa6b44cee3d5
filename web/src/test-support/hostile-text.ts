// Log text that tries to hide or reorder itself, for the views' tests: an RLO override, a zero-width space,
// a BEL and an isolate. Each view must show HOSTILE_SHOWN where the log says HOSTILE.
export const HOSTILE = 'evil\u202Etxt.exe\u200B\u0007\u2066x\u2069';
export const HOSTILE_SHOWN = 'evil\\u{202e}txt.exe\\u{200b}\\u{0007}\\u{2066}x\\u{2069}';

const RAW_INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;

/** The invisible or reordering characters left raw in rendered text, as code points (empty when none). */
export function rawInvisible(text: string): string[] {
  return [...text.matchAll(RAW_INVISIBLE)].map((m) => `U+${(m[0].codePointAt(0) as number).toString(16).padStart(4, '0')}`);
}

/** Rendered markup → the text a reader sees (entities decoded, tags dropped). */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
