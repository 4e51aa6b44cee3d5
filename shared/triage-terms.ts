// Triage's two constants that the archive's schema and the ingest use as well: apart from the HTTP contract
// (shared/api/triage.ts re-exports them) so that the ingest worker and the search thread load without zod.

/**
 * The slow threshold (FORMAT §6: the troubleshoot skill's `select(.dur > 5000)`): the slow list's default, the
 * headline counts', and the one the archive indexes slow calls by (server/db/schema.ts, events_dur).
 */
export const SLOW_MS = 5000;

/** The types whose duration is a call: what the slow list, the statistics and the charts are about. */
export const CALL_TYPES = ['llm_request', 'tool_call', 'subagent', 'hook'] as const;
