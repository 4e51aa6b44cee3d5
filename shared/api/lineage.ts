import { z } from 'zod';
import { PageLimit, SessionSource, TimeWindow } from './common';

/** How a session came from its parent (server/lineage/derive-edges.ts). */
export const LineageEdgeKind = z.enum(['child', 'fork', 'continuation']);
export type LineageEdgeKind = z.infer<typeof LineageEdgeKind>;

/** Which fact in the logs chose the parent (`metadata`: a Copilot CLI session's vscode.metadata.json `parentSessionId`). */
export const LineageEdgeSource = z.enum(['tool_span', 'session_start', 'child_ref', 'folder', 'metadata']);
export type LineageEdgeSource = z.infer<typeof LineageEdgeSource>;

/** One session in a lineage. Times are ms since the epoch. */
export const LineageNode = z.object({
  id: z.string(),
  title: z.string().nullable(),
  /** the child's label (runSubagent-Explore, title, summarize…), or the label a fork's session_start carries */
  label: z.string().nullable(),
  /** null for a session that names no parent */
  parentId: z.string().nullable(),
  kind: LineageEdgeKind.nullable(),
  source: LineageEdgeSource.nullable(),
  /** the tool call in the parent that started this child, when known */
  toolSpanId: z.string().nullable(),
  toolName: z.string().nullable(),
  /** when the parent created it (the child_session_ref, else its session_start, else its first event) */
  createdAt: z.number().nullable(),
  firstTs: z.number().nullable(),
  lastTs: z.number().nullable(),
  durationMs: z.number().nullable(),
  eventCount: z.number(),
  errorCount: z.number(),
  repository: z.string().nullable(),
  isChild: z.boolean(),
  logDeleted: z.boolean(),
  /** false when no event of it was read: only another log names it (a child_session_ref), or its log is empty */
  hasLog: z.boolean(),
  childCount: z.number(),
  /** which product wrote the session (named apart from `source`, which says how the edge was found) */
  sessionSource: SessionSource.optional(),
});
export type LineageNode = z.infer<typeof LineageNode>;

export type LineageTreeNode = LineageNode & {
  descendants: LineageTreeNode[];
  /** children not included because of depth or limit */
  hiddenChildren: number;
};
export const LineageTreeNode: z.ZodType<LineageTreeNode> = LineageNode.extend({
  get descendants(): z.ZodArray<z.ZodType<LineageTreeNode>> {
    return z.array(LineageTreeNode);
  },
  hiddenChildren: z.number(),
});

export const LINEAGE_DEFAULT_DEPTH = 50;
export const LINEAGE_MAX_DEPTH = 200;
export const LINEAGE_DEFAULT_LIMIT = 1000;
export const LINEAGE_MAX_LIMIT = 5000;

/** GET /api/lineage/:id */
export const LineageTraceQuery = z.object({
  /** levels of descendants below the target */
  depth: z.coerce.number().int().min(0).max(LINEAGE_MAX_DEPTH).default(LINEAGE_DEFAULT_DEPTH),
  /** descendants in all, breadth first: the nearest levels are kept when the tree is cut */
  limit: z.coerce.number().int().min(1).max(LINEAGE_MAX_LIMIT).default(LINEAGE_DEFAULT_LIMIT),
});
export type LineageTraceQuery = z.infer<typeof LineageTraceQuery>;

export const LineageTruncation = z.object({
  byDepth: z.boolean(),
  byLimit: z.boolean(),
  /** children left out, summed over the nodes shown (a lower bound of the sessions left out) */
  hiddenChildren: z.number(),
});
export type LineageTruncation = z.infer<typeof LineageTruncation>;

const TraceBase = z.object({
  target: LineageNode,
  /** nearest parent first, farthest ancestor last */
  ancestors: z.array(LineageNode),
  /** the target's children, each with its own descendants; siblings by creation time, then id */
  descendants: z.array(LineageTreeNode),
  /** descendants returned */
  descendantCount: z.number(),
  /** null when the whole tree below the target is here */
  truncated: LineageTruncation.nullable(),
});

/** Either the ancestor chain reaches the top (`root`, the target itself when it has no parent) or it breaks. */
export const LineageTraceResponse = z.discriminatedUnion('complete', [
  TraceBase.extend({ complete: z.literal(true), root: LineageNode }),
  TraceBase.extend({
    complete: z.literal(false),
    /** the first parent on the way up that is not in the index */
    unresolvedParentId: z.string(),
  }),
]);
export type LineageTraceResponse = z.infer<typeof LineageTraceResponse>;

/** GET /api/lineage: every lineage tree touching a repository or time window, newest activity first. */
export const LineageForestQuery = z.object({
  /** '' means sessions whose workspace has no repository */
  repo: z.string().optional(),
  window: TimeWindow.default('7d'),
  /** trees per page */
  limit: PageLimit.default(50),
  cursor: z.string().optional(),
  /** 1: only trees with more than one session */
  branching: z.enum(['0', '1']).default('0'),
});
export type LineageForestQuery = z.infer<typeof LineageForestQuery>;

export const LineageTreeStats = z.object({
  sessions: z.number(),
  /** child logs started by a tool call or named runSubagent-* / searchSubagent */
  subagents: z.number(),
  /** other child logs: title, categorization, summarize… */
  helpers: z.number(),
  forks: z.number(),
  events: z.number(),
  errors: z.number(),
  /** sessions with at least one error */
  sessionsWithErrors: z.number(),
  depth: z.number(),
  lastActivity: z.number().nullable(),
});
export type LineageTreeStats = z.infer<typeof LineageTreeStats>;

export const LineageTree = z.object({
  root: LineageTreeNode,
  /** set when the root names a parent the index does not have */
  unresolvedParentId: z.string().nullable(),
  /** set when the parents loop: the sessions in the loop (the root shown is one of them) */
  cycle: z.array(z.string()).nullable(),
  stats: LineageTreeStats,
});
export type LineageTree = z.infer<typeof LineageTree>;

export const LineageForestResponse = z.object({
  trees: z.array(LineageTree),
  nextCursor: z.string().nullable(),
  /** trees in the whole window */
  total: z.number(),
  /** trees on this page cut at the per-page node budget */
  truncated: z.boolean(),
});
export type LineageForestResponse = z.infer<typeof LineageForestResponse>;
