import type Database from 'better-sqlite3';
import { visibleText } from '../../shared/visible-text';
import { makeEdgeDeriver } from '../lineage/derive-edges';
import { hostUsageTotals, makeHostUsageReader } from './cli/agent-host-usage';
import { makeCliFactsReader } from './cli/cli-session-facts';
import type { EventGroup, KnownTotals } from './session-totals';

const TITLE_MAX = 120;

/** A title as Copilot's title child writes it ("Fix the retry loop", sometimes quoted), cut for display. */
export function cleanTitle(text: string | null | undefined): string | null {
  if (!text) return null;
  let t = visibleText(text.replace(/\s+/g, ' ')).trim();
  if (t.length >= 2 && /^["'“`].*["'”`]$/.test(t)) t = t.slice(1, -1).trim();
  if (t === '') return null;
  return t.length > TITLE_MAX ? `${t.slice(0, TITLE_MAX - 1)}…` : t;
}

/** The session's totals, as SQL's aggregates over all its events give them (a sum of nothing but NULL is NULL). */
function totalsOf(groups: EventGroup[]): Record<string, number | null> {
  const t = { n: 0, errors: 0, first_ts: null as number | null, last_ts: null as number | null, tin: 0, tout: 0, tcached: 0, model_ms: 0, credits_nano: null as number | null, credited_calls: 0 };
  for (const g of groups) {
    t.n += g.n;
    t.errors += g.errors;
    if (g.first_ts !== null && (t.first_ts === null || g.first_ts < t.first_ts)) t.first_ts = g.first_ts;
    if (g.last_ts !== null && (t.last_ts === null || g.last_ts > t.last_ts)) t.last_ts = g.last_ts;
    t.tin += g.tin;
    t.tout += g.tout;
    t.tcached += g.tcached;
    if (g.type === 'llm_request') t.model_ms += g.dur;
    if (g.credits_nano !== null) t.credits_nano = (t.credits_nano ?? 0) + g.credits_nano;
    t.credited_calls += g.credited_calls;
  }
  return t;
}

/** Events per type, and the models of the session's model calls, sorted. */
function typesAndModelsOf(groups: EventGroup[]): { counts: Record<string, number>; models: string[] } {
  // own keys only: assigning counts['__proto__'] (a type in the log) would drop it
  const counts: Record<string, number> = Object.create(null);
  const models: string[] = [];
  for (const g of groups) {
    counts[g.type] = (Object.hasOwn(counts, g.type) ? counts[g.type] : 0) + g.n;
    if (g.type === 'llm_request' && g.model !== null) models.push(g.model);
  }
  return { counts: Object.fromEntries(Object.entries(counts)), models: models.sort() };
}

/**
 * Recomputes one session's facts from its events (counts, tokens, time span, models, title, children) and
 * rewrites its Chronicle `search_index` rows and its `session_text` row. Called for dirty sessions, throttled.
 * `knownTotals` gives the sums the writer kept of a session it wrote every event of (session-totals.ts), which
 * spare reading them back; null for any other session.
 */
export function makeSessionRefresher(db: Database.Database, knownTotals: (id: string) => KnownTotals | null = () => null) {
  const st = {
    session: db.prepare('SELECT num, id, label, is_child, parent_id, log_deleted, source, meta_text FROM sessions WHERE id = ?'),
    // One pass over the session's events, per type and model, summed below (three passes before: totals, types, models).
    byTypeAndModel: db.prepare(
      `SELECT type, model, count(*) n, sum(status) errors, min(ts) first_ts, max(ts + dur) last_ts,
              sum(coalesce(tokens_in, 0)) tin, sum(coalesce(tokens_out, 0)) tout, sum(coalesce(tokens_cached, 0)) tcached,
              sum(dur) dur, sum(credits_nano) credits_nano, count(credits_nano) credited_calls
       FROM events WHERE session_num = ? AND dup < 2 GROUP BY type, model`,
    ),
    slowest: db.prepare('SELECT id FROM events WHERE session_num = ? AND dup < 2 ORDER BY dur DESC, id LIMIT 1'),
    titleChild: db.prepare(
      `SELECT t.assistant_response r FROM sessions c JOIN turns t ON t.session_id = c.id
       WHERE c.parent_id = ? AND c.label = 'title' AND t.assistant_response IS NOT NULL ORDER BY c.num DESC, t.turn_index DESC LIMIT 1`,
    ),
    firstMessage: db.prepare('SELECT user_message m FROM turns WHERE session_id = ? AND user_message IS NOT NULL AND user_message != \'\' ORDER BY turn_index LIMIT 1'),
    firstAnswer: db.prepare(
      "SELECT assistant_response r FROM turns WHERE session_id = ? AND assistant_response IS NOT NULL AND assistant_response != '' ORDER BY turn_index LIMIT 1",
    ),
    childCount: db.prepare('SELECT count(*) n FROM sessions WHERE parent_id = ?'),
    filesAlive: db.prepare('SELECT count(*) total, sum(deleted_at IS NOT NULL) deleted FROM files WHERE session_id = ?'),
    // A session id found under two roots (two workspaces, or a workspace and a no-workspace root, FORMAT §10.1) is
    // one session: it takes the workspace of the copy written last, but a copy with a repository (or at least a
    // workspace) beats one without, so the session never drops to "No workspace" while a copy has one.
    workspaceOfCopies: db.prepare(
      `SELECT f.workspace_dir dir, w.repository, w.branch, w.folder FROM files f LEFT JOIN workspaces w ON w.storage_dir = f.workspace_dir
       WHERE f.session_id = ?
       ORDER BY w.repository IS NOT NULL DESC, coalesce(w.kind, 'none') != 'none' DESC, coalesce(f.mtime, 0) DESC, f.id DESC LIMIT 1`,
    ),
    setWorkspace: db.prepare('UPDATE sessions SET workspace_dir = @dir, repository = @repository, branch = @branch, cwd = @folder WHERE num = @num'),
    // The parent a start line names (sessionStart, store.ts) stays; else the one VS Code's metadata names.
    setCliPlace: db.prepare(
      `UPDATE sessions SET repository = @repository, branch = @branch, cwd = @cwd,
         parent_id = coalesce(parent_id, @parent), relation = coalesce(relation, @relation) WHERE num = @num`,
    ),
    update: db.prepare(
      `UPDATE sessions SET event_count = @n, error_count = @errors, first_ts = @first_ts, last_ts = @last_ts,
         created_at = @created_at, updated_at = @updated_at, tokens_in = @tin, tokens_out = @tout, tokens_cached = @tcached,
         model_ms = @model_ms, credits_nano = @credits_nano, credited_calls = @credited_calls, counts = @counts, models = @models, slowest_event = @slowest, title = @title, summary = @summary,
         child_count = @children, log_deleted = @log_deleted, usage_complete = @usage_complete, refreshed_at = @now, meta_text = @meta
       WHERE num = @num`,
    ),
    // Chronicle's FTS row of a turn has rowid = turns.id, so a refresh rewrites only the turns whose text grew
    // (deleting by the UNINDEXED session_id column would scan the whole table each time).
    staleTurns: db.prepare(
      `SELECT t.id, t.turn_index, t.c content FROM (
         SELECT id, turn_index, CASE WHEN coalesce(user_message, '') != '' AND coalesce(assistant_response, '') != ''
           THEN user_message || char(10) || assistant_response ELSE coalesce(nullif(user_message, ''), assistant_response) END c
         FROM turns WHERE session_id = ?) t
       WHERE coalesce(length(t.c), 0) != coalesce((SELECT length(content) FROM search_index WHERE rowid = t.id), 0)`,
    ),
    deleteTurnFts: db.prepare('DELETE FROM search_index WHERE rowid = ?'),
    insertTurnFts: db.prepare("INSERT INTO search_index (rowid, content, session_id, source_type, source_id) VALUES (?, ?, ?, 'turn', ?)"),
    deleteSessionText: db.prepare('DELETE FROM session_text WHERE rowid = ?'),
    insertSessionText: db.prepare('INSERT INTO session_text (rowid, text) VALUES (?, ?)'),
  };

  const deriveEdges = makeEdgeDeriver(db);
  const cliFacts = makeCliFactsReader(db);
  const hostUsageOf = makeHostUsageReader(db);

  return function refreshSession(id: string): void {
    const s = st.session.get(id) as { num: number; id: string; label: string | null; parent_id: string | null; source: string; meta_text: string | null } | undefined;
    if (!s) return;
    const known = knownTotals(id);
    const groups = known?.groups ?? (st.byTypeAndModel.all(s.num) as EventGroup[]);
    const agg = totalsOf(groups);
    // A CLI session names its own folder and repository; input, cache and credits exist only as its shutdown's
    // totals (INTEROP §3), and without a shutdown they are unknown, not 0 (usage_complete = 0).
    // VS Code's agentHostUsage side file, per call, is preferred when it exists (it is there while a session runs).
    const cli = s.source === 'cli' ? cliFacts(id, s.num) : null;
    const hostUsage = cli ? hostUsageOf(id) : null;
    const usage = hostUsage ? hostUsageTotals(hostUsage) : cli?.shutdown ? { inputTokens: cli.shutdown.inputTokens, cacheReadTokens: cli.shutdown.cacheReadTokens, creditsNano: cli.shutdown.creditsNano } : null;
    if (usage) {
      agg.tin = usage.inputTokens;
      agg.tcached = usage.cacheReadTokens;
      agg.credits_nano = usage.creditsNano;
    }
    const { counts, models } = typesAndModelsOf(groups);
    const slowest = known ? known.slowest : ((st.slowest.get(s.num) as { id: number } | undefined)?.id ?? null);
    const titleRow = st.titleChild.get(id) as { r: string } | undefined;
    const first = st.firstMessage.get(id) as { m: string } | undefined;
    // A child with no user message of its own (a title or summarize request) is named by its answer.
    const answer = titleRow || first ? undefined : (st.firstAnswer.get(id) as { r: string } | undefined);
    const title = cleanTitle(cli?.title) ?? cleanTitle(titleRow?.r) ?? cleanTitle(first?.m) ?? cleanTitle(answer?.r) ?? (s.label ? cleanTitle(s.label) : null);
    const files = st.filesAlive.get(id) as { total: number; deleted: number | null };
    // A child known only from a ref (no file of its own yet) keeps the workspace of the log that named it.
    const copy = st.workspaceOfCopies.get(id) as { dir: string | null; repository: string | null; branch: string | null; folder: string | null } | undefined;
    if (cli) st.setCliPlace.run({ repository: cli.repository, branch: cli.branch, cwd: cli.cwd, parent: cli.parent?.id ?? null, relation: cli.parent?.kind ?? null, num: s.num });
    else if (copy) st.setWorkspace.run({ ...copy, num: s.num });
    const firstTs = agg.first_ts ?? null;
    const lastTs = agg.last_ts ?? null;
    const meta = [id, title, s.label].filter((x) => x).join(' ');
    st.update.run({
      num: s.num,
      n: agg.n ?? 0,
      errors: agg.errors ?? 0,
      first_ts: firstTs,
      last_ts: lastTs,
      created_at: firstTs === null ? null : new Date(firstTs).toISOString(),
      // Chronicle's reindex sets updated_at to the reindex time; here it is the last activity (FORMAT §5.5).
      updated_at: lastTs === null ? null : new Date(lastTs).toISOString(),
      tin: agg.tin ?? 0,
      tout: agg.tout ?? 0,
      tcached: agg.tcached ?? 0,
      model_ms: agg.model_ms ?? 0,
      credits_nano: agg.credits_nano ?? null,
      credited_calls: agg.credited_calls ?? 0,
      counts: JSON.stringify(counts),
      models: JSON.stringify(models),
      slowest,
      title,
      summary: title === null ? null : title.length > 100 ? `${title.slice(0, 97)}...` : title,
      children: (st.childCount.get(id) as { n: number }).n,
      log_deleted: files.total > 0 && files.deleted === files.total ? 1 : 0,
      usage_complete: cli && !usage ? 0 : 1,
      now: Date.now(),
      meta,
    });
    for (const t of st.staleTurns.all(id) as { id: number; turn_index: number; content: string | null }[]) {
      st.deleteTurnFts.run(t.id);
      if (t.content) st.insertTurnFts.run(t.id, t.content, id, `${id}:turn:${t.turn_index}`);
    }
    // Rewritten only when it changed, and deleted only when there is one: deleting a row of this contentless table
    // that exists costs ~30–90 µs (a tombstone in every segment that may hold it), a fifth of a whole refresh on
    // the 1.6 GiB archive, and the text rarely changes from one refresh of a session to the next.
    if (meta !== s.meta_text) {
      if (s.meta_text !== null) st.deleteSessionText.run(s.num);
      st.insertSessionText.run(s.num, meta);
    }
    // Lineage last: it reads first_ts just written, and may re-parent children whose tool call arrived now.
    deriveEdges(id);
  };
}
