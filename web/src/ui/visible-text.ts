import { visibleText } from '../../../shared/visible-text';

// Every piece of log text the UI shows (titles, names, labels, models, paths, messages, snippets, keys) goes
// through one of these: bidi overrides, zero-width and control characters become visible escapes.
export { visibleText };

/** Multi-line log text (messages, tool output, the raw line): a Windows line end stays a line end. */
export function visibleBlock(text: string): string {
  return visibleText(text.replace(/\r\n/g, '\n'));
}
