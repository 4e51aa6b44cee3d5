/**
 * What one `discovery` entry says about the customizations Copilot looked for (FORMAT §6; seed 004): which
 * folders it searched, which files or names it loaded, which it skipped and why. The `details` text has no
 * fixed grammar across versions ("Resolved 3 agents in 0.0ms | loaded: [Plan, Ask] | folders: [/w/.github/agents]",
 * "loaded: [\"a.md\"] skipped: [{\"path\": \"…/SKILL.md\", \"reason\": \"name-mismatch\"}]",
 * "skipped: testing2 (name-mismatch)"), and it may be cut at 5,000 characters, so it is read with patterns
 * that accept JSON and bare lists alike, never with JSON.parse alone.
 */

export type CustomizationKind = 'instruction' | 'skill' | 'agent' | 'hook' | 'prompt' | 'other';

export interface SkippedCustomization {
  /** the name or path the user has to find (the folder name, the `name:` value, the file) */
  name: string;
  reason: string;
  /** the file, when the entry names it apart from the name */
  path?: string;
}

export interface DiscoveryFacts {
  kind: CustomizationKind;
  folders: string[];
  loaded: string[];
  skipped: SkippedCustomization[];
  /** a failure the entry reports (status error), e.g. a file that could not be read */
  error: string | null;
}

const KIND_BY_WORD: [RegExp, CustomizationKind][] = [
  [/instruction/i, 'instruction'],
  [/skill/i, 'skill'],
  [/agent/i, 'agent'],
  [/hook/i, 'hook'],
  [/prompt/i, 'prompt'],
];

/** "Load Instructions" → instruction, "Load Prompt Files" → prompt; anything else is `other`. */
export function customizationKind(name: string): CustomizationKind {
  for (const [re, kind] of KIND_BY_WORD) if (re.test(name)) return kind;
  return 'other';
}

/** The text after `label:` up to the bracket that closes its list, or up to the next `|` for a bare value. */
function listAfter(details: string, label: string): string | null {
  const m = new RegExp(`\\b${label}\\s*:\\s*`, 'i').exec(details);
  if (!m) return null;
  const rest = details.slice(m.index + m[0].length);
  if (!rest.startsWith('[')) {
    const end = rest.search(/\s\|\s|\s+(?:loaded|skipped|folders|events)\s*:/i);
    return end < 0 ? rest : rest.slice(0, end);
  }
  let depth = 0;
  let inString = false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return rest.slice(1, i);
    }
  }
  return rest.slice(1); // cut at 5,000 characters before the list closed: keep what is there
}

/** Items of a list body: `"a", "b"` or `a, b, ...`; the `...` the writer uses for "more" is dropped. */
function items(body: string | null): string[] {
  if (body === null) return [];
  const out: string[] = [];
  for (const m of body.matchAll(/\s*(?:"((?:[^"\\]|\\.)*)"|([^,]+))/g)) {
    const v = (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]).trim();
    if (v !== '' && v !== '...' && v !== '…') out.push(v);
  }
  return out;
}

function skippedItems(body: string | null): SkippedCustomization[] {
  if (body === null) return [];
  const out: SkippedCustomization[] = [];
  if (/[{]/.test(body)) {
    for (const obj of body.matchAll(/\{([^{}]*)\}?/g)) {
      const field = (k: string) => new RegExp(`"?${k}"?\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(obj[1])?.[1];
      const name = field('name') ?? field('path') ?? field('file') ?? field('uri');
      const path = field('path') ?? field('file') ?? field('uri');
      if (name) out.push({ name, reason: field('reason') ?? 'unknown reason', ...(path && path !== name ? { path } : {}) });
    }
    return out;
  }
  // "testing2 (name-mismatch), other (missing-description)" or bare names
  for (const m of body.matchAll(/\s*([^,(]+?)\s*(?:\(([^)]*)\))?\s*(?:,|$)/g)) {
    const name = m[1].trim().replace(/^"|"$/g, '');
    if (name !== '' && !/^\d+$/.test(name)) out.push({ name, reason: m[2]?.trim() || 'unknown reason' });
  }
  return out;
}

export function parseDiscovery(name: string, details: unknown, status: 'ok' | 'error'): DiscoveryFacts {
  const text = typeof details === 'string' ? details : '';
  const skippedBody = listAfter(text, 'skipped');
  return {
    kind: customizationKind(name),
    folders: items(listAfter(text, 'folders')),
    loaded: items(listAfter(text, 'loaded')),
    skipped: skippedItems(skippedBody === null || /^\s*\d+\s*$/.test(skippedBody) ? null : skippedBody),
    error: status === 'error' ? text || 'failed (no details)' : null,
  };
}
