import type { SqlExample } from '../../shared/api';

/**
 * Starting points for the console: Chronicle's documented queries (FORMAT §5.3, §5.6, §5.7) on the same
 * tables and columns, then a few over Chronoscope's own tables. Each one runs in examples.test.ts.
 */
export const SQL_EXAMPLES: SqlExample[] = [
  {
    title: 'Full-text search (Chronicle)',
    description: "Chronicle's search: FTS5 MATCH on search_index, best bm25 rank first, with a snippet (FORMAT §5.3).",
    sql: `SELECT session_id, source_type,
       snippet(search_index, 0, '[', ']', '…', 12) AS snippet,
       bm25(search_index) AS rank
FROM search_index
WHERE search_index MATCH 'retry'
ORDER BY rank
LIMIT 20`,
  },
  {
    title: 'Sessions matching a search',
    description: 'MATCH on search_index projecting session_id, then the session facts, newest first (FORMAT §5.7).',
    sql: `SELECT s.id, s.repository, s.branch, s.summary, s.updated_at
FROM sessions s
WHERE s.id IN (SELECT session_id FROM search_index WHERE search_index MATCH '"retry bug" OR timeout')
ORDER BY s.updated_at DESC
LIMIT 50`,
  },
  {
    title: 'Sessions that touched a file',
    description: 'File paths are not in the FTS index: LIKE on session_files.file_path (FORMAT §5.3, §5.7).',
    sql: `SELECT s.id, s.repository, f.file_path, f.tool_name, f.turn_index, s.updated_at
FROM session_files f
JOIN sessions s ON s.id = f.session_id
WHERE f.file_path LIKE '%.ts'
ORDER BY s.updated_at DESC
LIMIT 50`,
  },
  {
    title: 'Sessions that mention a PR, issue or commit',
    description: 'LIKE on session_refs.ref_value; ref_type is commit, pr or issue (FORMAT §5.2).',
    sql: `SELECT s.id, s.repository, r.ref_type, r.ref_value, r.turn_index
FROM session_refs r
JOIN sessions s ON s.id = r.session_id
WHERE r.ref_value LIKE '%12%'
ORDER BY s.updated_at DESC
LIMIT 50`,
  },
  {
    title: 'Standup: the last 24 hours',
    description:
      "Chronicle's standup (FORMAT §5.6): recent sessions (at most 20) with their turns cut to 120/200 characters. " +
      "Chronicle compares with datetime('now','-1 day'), whose format differs from the stored ISO text; strftime keeps it a true 24 h.",
    sql: `WITH recent AS (
  SELECT id, repository, summary, updated_at
  FROM sessions
  WHERE updated_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')
  ORDER BY updated_at DESC
  LIMIT 20
)
SELECT r.id, r.repository, r.summary, r.updated_at, t.turn_index,
       substr(t.user_message, 1, 120) AS user_message,
       substr(t.assistant_response, 1, 200) AS assistant_response
FROM recent r
LEFT JOIN turns t ON t.session_id = r.id
ORDER BY r.updated_at DESC, t.turn_index`,
  },
  {
    title: 'Sessions by repository',
    description: 'How many sessions each repository has and when it was last active; NULL repositories as "(none)".',
    sql: `SELECT coalesce(repository, '(none)') AS repository,
       count(*) AS sessions,
       max(updated_at) AS last_updated
FROM sessions
GROUP BY repository
ORDER BY last_updated DESC`,
  },
  {
    title: 'Files and refs of the latest session',
    description: "The standup's per-session detail: files first seen by tool, and PR/issue/commit refs.",
    sql: `WITH latest AS (SELECT id FROM sessions ORDER BY updated_at DESC LIMIT 1)
SELECT 'file' AS kind, file_path AS value, tool_name AS detail, turn_index
FROM session_files WHERE session_id = (SELECT id FROM latest)
UNION ALL
SELECT 'ref', ref_value, ref_type, turn_index
FROM session_refs WHERE session_id = (SELECT id FROM latest)
ORDER BY turn_index`,
  },
  {
    title: 'Slowest model calls',
    description: 'Chronoscope: one row per event; dup = 0 leaves out replayed copies (durations in ms).',
    sql: `SELECT s.id AS session_id, e.model, e.dur, e.ttft, e.tokens_in, e.tokens_out,
       datetime(e.ts / 1000, 'unixepoch') AS started
FROM events e
JOIN sessions s ON s.num = e.session_num
WHERE e.type = 'llm_request' AND e.dup = 0
ORDER BY e.dur DESC
LIMIT 50`,
  },
  {
    title: 'Failures by tool or request',
    description: 'Chronoscope: failed events (status = 1) grouped by what failed, with one of their error messages.',
    sql: `SELECT coalesce(tool, name, type) AS what, count(*) AS failures,
       max(ts) AS last_ts, substr(max(error), 1, 160) AS an_error
FROM events
WHERE status = 1 AND dup = 0
GROUP BY what
ORDER BY failures DESC
LIMIT 50`,
  },
];
