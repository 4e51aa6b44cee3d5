import { useInfiniteQuery } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { LineageTree } from '../../../../shared/api';
import { Badge } from '../../ui/Badge';
import { SourceBadge } from '../../ui/SourceBadge';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount, formatDuration, plural, shortId } from '../../ui/format';
import { visibleText } from '../../ui/visible-text';
import { RelativeTime } from '../../ui/RelativeTime';
import { Spinner } from '../../ui/Spinner';
import { forestRows, type ForestRow } from './forest-rows';
import { lineageForestOptions } from './lineage.queries';
import { nodeBadge, relationTone } from './relation';
import { lineagePath, sessionPath, type ForestFilters } from './url';

const ROW_H = 30;
const TREE_H = 44;

function TreeHeading({ tree }: { tree: LineageTree }) {
  const s = tree.stats;
  const parts = [plural(s.sessions, 'session')];
  if (s.subagents) parts.push(plural(s.subagents, 'subagent'));
  if (s.forks) parts.push(plural(s.forks, 'fork'));
  if (s.helpers) parts.push(`${formatCount(s.helpers)} title/summary`);
  return (
    <div className="forest-tree-heading">
      <h2 className="forest-tree-title">
        <Link to={lineagePath(tree.root.id)}>{visibleText(tree.root.title ?? shortId(tree.root.id))}</Link>
      </h2>
      <span className="forest-tree-stats">{parts.join(' · ')}</span>
      {s.errors > 0 && (
        <Badge tone="danger" title={`${formatCount(s.errors)} errors in ${plural(s.sessionsWithErrors, 'session')}`}>
          {plural(s.errors, 'error')} in {plural(s.sessionsWithErrors, 'session')}
        </Badge>
      )}
      {tree.cycle && <Badge tone="warn" title={visibleText(tree.cycle.join(' → '))}>parent links loop</Badge>}
      <span className="forest-tree-when muted">
        <RelativeTime ts={s.lastActivity} />
      </span>
      <Link to={lineagePath(tree.root.id)} className="btn btn-small">
        Graph
      </Link>
    </div>
  );
}

function Guides({ guides, depth, last }: { guides: boolean[]; depth: number; last?: boolean }) {
  if (depth === 0) return null;
  return (
    <span className="forest-guides" aria-hidden="true">
      {guides.map((g, i) => (
        <span key={i} className={g ? 'forest-guide is-through' : 'forest-guide'} />
      ))}
      <span className={last ? 'forest-guide is-elbow is-last' : 'forest-guide is-elbow'} />
    </span>
  );
}

function Row({ row }: { row: ForestRow }) {
  if (row.kind === 'tree') return <TreeHeading tree={row.tree} />;
  if (row.kind === 'more') {
    return (
      <div className="forest-row is-more">
        <Guides guides={row.guides} depth={row.depth} last />
        <Link to={lineagePath(row.parentId)}>+{formatCount(row.count)} more</Link>
      </div>
    );
  }
  const n = row.node;
  const badge = nodeBadge(n) ?? (row.depth === 0 ? 'root' : null);
  const heat = n.eventCount > 0 ? Math.min(1, n.errorCount / Math.max(5, n.eventCount / 10)) : 0;
  return (
    <div className={`forest-row tone-${relationTone(n)}${n.errorCount > 0 ? ' is-failing' : ''}`} style={n.errorCount > 0 ? { ['--heat' as string]: heat.toFixed(2) } : undefined}>
      <Guides guides={row.guides} depth={row.depth} last={row.last} />
      {row.unresolvedParentId && (
        <span className="forest-unresolved" title={`parent ${visibleText(row.unresolvedParentId)} is not in the index`}>
          ⋯ not in the index ›
        </span>
      )}
      {badge && <span className="forest-badge">{badge}</span>}
      <SourceBadge source={n.sessionSource} />
      <Link to={sessionPath(n.id)} className="forest-title" title={visibleText(n.id)}>
        {visibleText(n.title ?? n.label ?? shortId(n.id))}
      </Link>
      <span className="forest-facts">
        {n.errorCount > 0 && <span className="text-danger">{plural(n.errorCount, 'error')} · </span>}
        {plural(n.eventCount, 'event')} in its log · {n.durationMs === null ? '—' : formatDuration(n.durationMs)}
        {!n.hasLog ? ' · no log read' : n.logDeleted ? ' · log deleted' : ''}
      </span>
      {n.childCount > 0 && (
        <Link to={lineagePath(n.id)} className="forest-graph-link" aria-label={`Lineage graph of ${visibleText(n.title ?? n.id)}`}>
          graph
        </Link>
      )}
    </div>
  );
}

/** `/lineage`: every lineage tree of the window and repository as an indented forest, newest activity first. */
export function ForestView({ filters }: { filters: ForestFilters }) {
  const q = useInfiniteQuery(lineageForestOptions(filters));
  const trees = useMemo(() => q.data?.pages.flatMap((p) => p.trees) ?? [], [q.data]);
  const rows = useMemo(() => forestRows(trees), [trees]);
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    if (listRef.current) setScrollMargin(listRef.current.getBoundingClientRect().top + window.scrollY);
  }, [q.isPending]);
  const v = useWindowVirtualizer({
    count: rows.length,
    scrollMargin,
    estimateSize: (i) => (rows[i].kind === 'tree' ? TREE_H : ROW_H),
    overscan: 12,
  });
  if (q.isPending) return <Spinner label="Loading lineage forest" />;
  if (q.isError) return <ErrorInline error={q.error} what="the lineage forest" onRetry={() => void q.refetch()} />;
  const total = q.data.pages[0]?.total ?? 0;
  if (trees.length === 0) {
    return (
      <EmptyState title="No sessions in this window">
        Widen the time window or pick another repository.
      </EmptyState>
    );
  }
  return (
    <div className="forest">
      <div ref={listRef} className="forest-rows" style={{ height: v.getTotalSize() }} role="list" aria-label="Lineage trees">
        {v.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <div
              key={row.key}
              role="listitem"
              className={row.kind === 'tree' ? 'forest-item is-tree' : 'forest-item'}
              style={{ transform: `translateY(${item.start - scrollMargin}px)`, height: item.size }}
              data-depth={row.kind === 'tree' ? undefined : row.depth}
            >
              <Row row={row} />
            </div>
          );
        })}
      </div>
      <footer className="forest-footer">
        <span className="forest-footer-count">
          Showing {formatCount(trees.length)} of {plural(total, 'tree')}
          {q.data.pages.some((p) => p.truncated) ? ' (large trees cut: open the graph for all of one)' : ''}
        </span>
        {q.hasNextPage && (
          <button type="button" className="btn" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
            {q.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        )}
      </footer>
    </div>
  );
}
