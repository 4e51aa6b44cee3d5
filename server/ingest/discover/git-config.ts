/** One `key = value` of a git config file. Section and key names are case-insensitive and kept lower-cased. */
export interface GitConfigEntry {
  section: string;
  /** `origin` in `[remote "origin"]`; case-sensitive. */
  subsection: string | null;
  key: string;
  value: string;
}

const SECTION_HEADER = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/;

/** Parses the git config ini dialect (quoted values, escapes, `#`/`;` comments, old `[remote.origin]` form). */
export function parseGitConfig(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section = '';
  let subsection: string | null = null;
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.trim();
    const header = SECTION_HEADER.exec(line);
    if (header) {
      const [name, ...rest] = header[1].split('.');
      section = name.toLowerCase();
      if (header[2] !== undefined) subsection = header[2].replace(/\\(.)/g, '$1');
      else subsection = rest.length > 0 ? rest.join('.').toLowerCase() : null;
      line = line.slice(header[0].length).trim();
    }
    if (line === '' || line.startsWith('#') || line.startsWith(';') || section === '') continue;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv) continue;
    entries.push({ section, subsection, key: kv[1].toLowerCase(), value: kv[2] === undefined ? 'true' : unquoteValue(kv[2]) });
  }
  return entries;
}

/** Resolves quotes and escapes, and drops an unquoted trailing comment. */
function unquoteValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[++i];
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next;
    } else if (c === '"') {
      quoted = !quoted;
    } else if ((c === '#' || c === ';') && !quoted) {
      break;
    } else {
      out += c;
    }
  }
  return quoted ? out : out.trimEnd();
}

/**
 * The URL of remote "origin", else of the first remote in the file, with `url.<base>.insteadOf` rewrites
 * applied (longest prefix wins, as in git).
 */
export function pickRemoteUrl(entries: GitConfigEntry[]): string | null {
  const urls = entries.filter((e) => e.section === 'remote' && e.subsection !== null && e.key === 'url');
  const chosen = urls.find((e) => e.subsection === 'origin') ?? urls[0];
  if (!chosen) return null;
  const rewrites = entries.filter((e) => e.section === 'url' && e.subsection !== null && e.key === 'insteadof');
  const best = rewrites
    .filter((r) => r.value !== '' && chosen.value.startsWith(r.value))
    .sort((a, b) => b.value.length - a.value.length)[0];
  return best ? best.subsection + chosen.value.slice(best.value.length) : chosen.value;
}
