import { z } from 'zod';
import { sourceOf } from '../../../shared/api';
import { LINEAGE_MAX_DEPTH, LineageTraceQuery, type LineageNode, type LineageTreeNode } from '../../../shared/api';
import { traceLineage } from '../../lineage/lineage-db';
import { LineageCycleError } from '../../lineage/trace';
import type { DashboardLinks } from '../links';
import { defineTool } from '../tool-context';
import { ToolInputError } from '../tool-output';
import { sessionIdArg } from './args';

function node(n: LineageNode, links: DashboardLinks) {
  return {
    session_id: n.id,
    title: n.title,
    source: sourceOf({ source: n.sessionSource }),
    label: n.label,
    relation: n.kind,
    started_by_tool: n.toolName,
    created: n.createdAt === null ? null : new Date(n.createdAt).toISOString(),
    duration_ms: n.durationMs,
    events: n.eventCount,
    errors: n.errorCount,
    in_index: n.hasLog,
    link: n.hasLog ? links.session(n.id) : null,
  };
}

type Tree = ReturnType<typeof node> & { children: Tree[]; hidden_children: number };
function tree(n: LineageTreeNode, links: DashboardLinks): Tree {
  return { ...node(n, links), children: n.descendants.map((d) => tree(d, links)), hidden_children: n.hiddenChildren };
}

export const traceLineageTool = defineTool({
  name: 'trace_lineage',
  title: 'Where a session came from and what it started',
  description:
    'The lineage of one session: its ancestors (the session that started it as a subagent, title or summary request, or the one it was forked from), nearest first, ' +
    'and its descendants as a tree (subagents and their own subagents, forks, continuations), each with its relation, the tool call that started it, duration, events and errors. ' +
    'Use it to follow a subagent back to its parent request or to see everything a session spawned.',
  input: {
    session_id: sessionIdArg,
    depth: z.number().int().min(0, 'depth is 0 or more').max(LINEAGE_MAX_DEPTH, `depth is at most ${LINEAGE_MAX_DEPTH}`).default(3).describe('levels of descendants (default 3)'),
  },
  run(ctx, a) {
    let t;
    try {
      t = traceLineage(ctx.db, a.session_id, LineageTraceQuery.parse({ depth: a.depth, limit: 500 }));
    } catch (err) {
      if (err instanceof LineageCycleError) throw new ToolInputError(err.message);
      throw err;
    }
    if (!t) throw new ToolInputError(`no session ${a.session_id} in the index: pass an id returned by search_sessions`);
    return {
      listKey: 'descendants',
      payload: {
        target: node(t.target, ctx.links),
        ancestors: t.ancestors.map((n) => node(n, ctx.links)),
        complete: t.complete,
        ...(t.complete ? {} : { missing_parent: `${t.unresolvedParentId} (not in the index)` }),
        descendants_total: t.descendantCount,
        truncated: t.truncated,
        descendants: t.descendants.map((d) => tree(d, ctx.links)),
      },
    };
  },
});
