import type { MatchKind } from '../../shared/api/search';

/**
 * Relevance of a session for a substring query, from where and how often it matched. Not bm25: FTS5's bm25()
 * costs 5–10× the match itself per row (measured: 5,000 rows 5 ms → 30–50 ms) and would have to run on every
 * candidate; and with trigrams its term statistics are of trigrams, not of the words people type. What tells
 * sessions apart here is *where* the words are, so each place has a weight, and repeats add little (log).
 */
export const WEIGHTS = {
  /** the session's id, title or label: it is *about* this */
  meta: 8,
  /** the user's own words: the strongest sign the conversation was about it */
  user_message: 5,
  /** a PR, issue or commit the session produced, named exactly */
  ref: 5,
  agent_response: 3.5,
  /** failures are what people come back to look for */
  error: 3,
  /** a path the session read or edited */
  file: 3,
  subagent: 2.5,
  /** tool args and results: mostly file contents and terminal output, many incidental matches */
  tool_call: 1.5,
  hook: 1,
  /** a model call's model, debug name and request options: a model name is in every call of it */
  llm: 1,
  other: 1,
  /** the conversation as a model call was sent it: the user's words are already counted as user_message */
  prompt: 1,
  /** discovery/generic core events are copied into every session (FORMAT §4.4): hardly any signal */
  discovery: 0.5,
  /** system prompts and tool lists are much the same in every session */
  system_prompt: 0.5,
  tools: 0.5,
} as const;
export type WeightClass = keyof typeof WEIGHTS;

/** Recent sessions win ties: up to this many points, halving about every three weeks. */
const RECENCY_POINTS = 1.5;
const RECENCY_DAYS = 30;

export function isFailure(type: string, status: number): boolean {
  return status === 1 || type === 'error';
}

export function kindOf(type: string, status: number): MatchKind {
  if (isFailure(type, status)) return 'error';
  switch (type) {
    case 'user_message':
    case 'agent_response':
      return 'turn';
    case 'tool_call':
      return 'tool';
    case 'llm_request':
      return 'llm';
    case 'subagent':
    case 'child_session_ref':
      return 'subagent';
    case 'hook':
      return 'hook';
    case 'discovery':
    case 'generic':
      return 'discovery';
    default:
      return 'other';
  }
}

export function weightClassOf(type: string, status: number): WeightClass {
  if (isFailure(type, status)) return 'error';
  switch (type) {
    case 'llm_request':
      return 'llm';
    case 'user_message':
    case 'agent_response':
    case 'tool_call':
    case 'hook':
      return type;
    case 'subagent':
    case 'child_session_ref':
      return 'subagent';
    case 'discovery':
    case 'generic':
      return 'discovery';
    default:
      return 'other';
  }
}

/** Σ weight × ln(1 + matches) over the places it matched, plus a small recency bonus. */
export function relevance(counts: ReadonlyMap<WeightClass, number>, lastTs: number | null, now: number): number {
  let score = 0;
  for (const [cls, n] of counts) score += WEIGHTS[cls] * Math.log1p(n);
  if (lastTs !== null) {
    const ageDays = Math.max(0, now - lastTs) / 86_400_000;
    score += RECENCY_POINTS * Math.exp(-ageDays / RECENCY_DAYS);
  }
  return Math.round(score * 1000) / 1000;
}

export interface Rankable {
  num: number;
  score: number;
  lastTs: number | null;
  repository: string | null;
}

export type SortOrder = 'relevance' | 'recent';

export function compareSessions(sort: SortOrder) {
  return (a: Rankable, b: Rankable): number => {
    if (sort === 'relevance' && a.score !== b.score) return b.score - a.score;
    const ta = a.lastTs ?? 0;
    const tb = b.lastTs ?? 0;
    if (ta !== tb) return tb - ta;
    if (sort === 'recent' && a.score !== b.score) return b.score - a.score;
    return b.num - a.num;
  };
}

// Sessions in rank order → groups by repository, each group placed where its best session ranks; "Other" last.
export { groupByRepository, type RepositoryGroup as Group } from '../../shared/group-by-repository';
