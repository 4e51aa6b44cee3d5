import Database from 'better-sqlite3';
import type { CorpusManifest } from '../../server/corpus/generate';
import { attachSearch } from '../../server/search-index/search-db';

export interface QueryClass {
  /** what the row in BENCHMARKS.md says */
  name: string;
  /** the API request, relative to the server */
  path: string;
  /** the same answer by the tools people use today (rg over the files, jq for filters); null when none fits */
  baseline: { tool: 'rg' | 'jq'; args: string[] } | null;
  target: number;
}

const enc = encodeURIComponent;

function rg(text: string, corpusDir: string): QueryClass['baseline'] {
  return { tool: 'rg', args: ['-l', '-i', '-F', '--', text, corpusDir] };
}

/** The most frequent values the index holds, to build queries that exist in any generated corpus. */
function pick(db: Database.Database) {
  const count = (q: string) => {
    try {
      return (db.prepare('SELECT count(*) n FROM event_text WHERE event_text MATCH ?').get(`"${q}"`) as { n: number }).n;
    } catch {
      return 0;
    }
  };
  // "A word in 100k+ events": the candidate whose hit count is closest above 100k (else the most frequent).
  const candidates = ['the', 'error', 'file', 'function', 'return', 'const', 'test', 'import', 'retry', 'session'].map((w) => ({ w, n: count(w) }));
  const above = candidates.filter((c) => c.n >= 100_000).sort((a, b) => a.n - b.n);
  const common = above[0] ?? candidates.sort((a, b) => b.n - a.n)[0];
  // A phrase the corpus holds: "retry with backoff" was the row's phrase from the first bench, but the generator
  // writes "retry <name> with exponential backoff", so the row timed a search that finds nothing.
  const phrases = ['retry with backoff', 'with exponential backoff'].map((w) => ({ w, n: count(w) }));
  const phrase = phrases.find((c) => c.n > 0) ?? phrases[0];
  const file = db.prepare('SELECT file_path p, count(*) n FROM session_files GROUP BY file_path ORDER BY n DESC LIMIT 1').get() as { p: string } | undefined;
  const ref = db.prepare("SELECT ref_value v FROM session_refs WHERE ref_type = 'pr' GROUP BY ref_value ORDER BY count(*) DESC LIMIT 1").get() as { v: string } | undefined;
  const repo = db.prepare('SELECT repository r FROM sessions WHERE repository IS NOT NULL GROUP BY repository ORDER BY count(*) DESC LIMIT 1').get() as { r: string } | undefined;
  const model = db.prepare("SELECT model m FROM events WHERE type = 'llm_request' AND model IS NOT NULL GROUP BY model ORDER BY count(*) DESC LIMIT 1").get() as { m: string } | undefined;
  const lineageRoot = db
    .prepare('SELECT parent_id id, count(*) n FROM sessions WHERE parent_id IS NOT NULL GROUP BY parent_id ORDER BY n DESC LIMIT 1')
    .get() as { id: string; n: number } | undefined;
  return { common, phrase, file: file?.p ?? 'src/index.ts', ref: ref?.v ?? '1', repo: repo?.r ?? '', model: model?.m ?? 'gpt-4.1', lineageRoot: lineageRoot?.id ?? '' };
}

/** Every query class of the search, triage, session and lineage issues, with its baseline. */
export function queryClasses(dbPath: string, manifest: CorpusManifest, corpusDir: string): { classes: QueryClass[]; notes: string[] } {
  const db = new Database(dbPath, { readonly: true });
  attachSearch(db, dbPath);
  const p = pick(db);
  db.close();
  const n = manifest.notable;
  const rare = n.rareWords[0];
  const ident = 'Reconnect'; // a fragment inside wsReconnectLoop
  const pathFragment = p.file.split('/').slice(-2).join('/');
  const search = (q: string) => `/api/search?q=${enc(q)}`;
  const classes: QueryClass[] = [
    { name: `search: rare word (${rare})`, path: search(rare), baseline: rg(rare, corpusDir), target: 50 },
    { name: `search: word in ${p.common.n.toLocaleString('en')} events (${p.common.w})`, path: search(p.common.w), baseline: rg(p.common.w, corpusDir), target: 50 },
    { name: `search: phrase ("${p.phrase.w}", in ${p.phrase.n.toLocaleString('en')} events)`, path: search(`"${p.phrase.w}"`), baseline: rg(p.phrase.w, corpusDir), target: 50 },
    { name: `search: identifier fragment (${ident})`, path: search(ident), baseline: rg(ident, corpusDir), target: 50 },
    { name: 'search: 1-character CJK (盘)', path: search('盘'), baseline: rg('盘', corpusDir), target: 50 },
    { name: 'search: 2-character CJK (落盘)', path: search('落盘'), baseline: rg('落盘', corpusDir), target: 50 },
    { name: `search: path (${pathFragment})`, path: search(`file:${pathFragment}`), baseline: rg(pathFragment, corpusDir), target: 50 },
    { name: `search: ref (PR ${p.ref})`, path: search(`ref:${p.ref}`), baseline: rg(`/pull/${p.ref}`, corpusDir), target: 50 },
    { name: `search: word + repo filter`, path: search(`${p.common.w} repo:${p.repo}`), baseline: rg(p.common.w, corpusDir), target: 50 },
    { name: `search: identifier + type:tool + 30d`, path: `${search(`${ident} type:tool`)}&window=30d`, baseline: rg(ident, corpusDir), target: 50 },
    { name: 'triage: slowest calls (first page)', path: '/api/events?min=5000&sort=dur', baseline: { tool: 'jq', args: ['select(.dur > 5000)'] }, target: 50 },
    { name: 'triage: error groups (first page)', path: '/api/errors/groups', baseline: { tool: 'jq', args: ['select(.status == "error")'] }, target: 50 },
    { name: 'triage: latency stats per model', path: '/api/stats/latency?by=model', baseline: { tool: 'jq', args: ['select(.type == "llm_request")'] }, target: 50 },
    { name: `triage: slow calls of ${p.model}`, path: `/api/events?min=5000&sort=dur&model=${enc(p.model)}`, baseline: null, target: 50 },
    { name: 'sessions list (first page)', path: '/api/sessions?limit=100', baseline: null, target: 50 },
    { name: `session spans, first window (${n.bigSessionId.slice(0, 8)})`, path: `/api/sessions/${enc(n.bigSessionId)}/spans?offset=0&limit=200`, baseline: null, target: 50 },
    { name: `lineage of the largest family`, path: `/api/lineage/${enc(p.lineageRoot)}`, baseline: null, target: 50 },
  ];
  return { classes, notes: [`common word: "${p.common.w}" in ${p.common.n} events`] };
}
