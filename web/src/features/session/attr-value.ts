// How the detail pane shows one attribute value: parsed JSON (args, result, response, inputMessages, tools…)
// or text, and whether Copilot cut it (FORMAT §3.4) or this page asked the server for less of it.

export type CopilotCut = { by: 'logger' } | { by: 'otel'; originalChars: number } | null;

const OTEL_SUFFIX = /\.\.\.\[truncated, original (\d+) chars\]$/;

/** Copilot's own truncation marks: the logger's `[truncated]` at 5,000 chars, OTel's suffix at 64,000. */
export function copilotCut(s: string): CopilotCut {
  const otel = OTEL_SUFFIX.exec(s.slice(-60));
  if (otel) return { by: 'otel', originalChars: Number(otel[1]) };
  if (s.endsWith('[truncated]')) return { by: 'logger' };
  return null;
}

export type AttrView =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string; cut: CopilotCut }
  | { kind: 'scalar'; value: number | boolean | null };

/** Parsing a value this long as JSON would freeze the tab; it is shown as (bounded) text instead. */
export const MAX_JSON_PARSE_CHARS = 4 * 1024 * 1024;

/** JSON for strings that hold an object or array and parse; text otherwise (a cut value no longer parses). */
export function attrView(value: unknown): AttrView {
  if (typeof value === 'string') {
    const head = value.trimStart()[0];
    if ((head === '{' || head === '[') && value.length <= MAX_JSON_PARSE_CHARS) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (parsed !== null && typeof parsed === 'object') return { kind: 'json', value: parsed };
      } catch {
        /* not JSON after all, or cut by Copilot */
      }
    }
    return { kind: 'text', text: value, cut: copilotCut(value) };
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return { kind: 'scalar', value };
  return { kind: 'json', value };
}

/** A string inside JSON that is itself JSON (tool-call `arguments`): worth showing as a tree too. */
export function nestedJson(s: string): unknown {
  if (s.length < 2 || s.length > MAX_JSON_PARSE_CHARS) return undefined;
  const head = s[0];
  if (head !== '{' && head !== '[') return undefined;
  try {
    const v: unknown = JSON.parse(s);
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Attributes shown first, in this order; the rest follow alphabetically. */
const FIRST = ['error', 'content', 'userRequest', 'response', 'reasoning', 'args', 'result', 'model', 'agentName', 'description', 'command', 'input', 'output', 'details'];

export function orderAttrs(keys: string[]): string[] {
  const rank = (k: string) => {
    const i = FIRST.indexOf(k);
    return i < 0 ? FIRST.length : i;
  };
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
