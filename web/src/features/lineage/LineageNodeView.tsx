import { Handle, Position, type NodeProps } from '@xyflow/react';
import { createContext, memo, useContext } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import { Link } from 'react-router';
import { formatCount, formatDuration, plural, shortId } from '../../ui/format';
import { SourceBadge } from '../../ui/SourceBadge';
import { visibleText } from '../../ui/visible-text';
import { sourceOf } from '../../../../shared/api';
import type { LineageFlowNode } from './graph-layout';
import { nodeBadge, relationTone } from './relation';
import { lineagePath, sessionPath } from './url';

const handles = (
  <>
    <Handle type="target" position={Position.Left} isConnectable={false} className="lineage-handle" />
    <Handle type="source" position={Position.Right} isConnectable={false} className="lineage-handle" />
  </>
);

/** Opens a group node (LineageGraph provides it; the nodes are rendered by xyflow, not by us). */
export const OpenGroupContext = createContext<(groupId: string) => void>(() => {});

/**
 * One node of the lineage graph. A session is a link to its page (so the graph is keyboard- and
 * role-navigable); the unresolved parent is a dashed box; "+N more" re-centres the lineage on its parent.
 */
export const LineageNodeView = memo(function LineageNodeView({ data }: NodeProps<LineageFlowNode>) {
  const openGroup = useContext(OpenGroupContext);
  if (data.kind === 'unresolved') {
    // the whole id, copyable: it is what to look for in another workspace; no link, there is no page for it
    return (
      <div className="lineage-node is-unresolved nodrag" title={`Parent session ${visibleText(data.sessionId)} is not in the index (another workspace, or deleted before it was read)`}>
        <span className="lineage-node-badge">parent not in the index</span>
        <span className="lineage-node-id mono">
          {visibleText(data.sessionId)}
          <CopyButton text={data.sessionId} what="parent session id" />
        </span>
        <span className="lineage-node-stats">never read: another workspace, or deleted first</span>
        {handles}
      </div>
    );
  }
  if (data.kind === 'group') {
    return (
      <button type="button" className="lineage-node is-group nodrag" aria-expanded={false} onClick={() => openGroup(data.groupId)} title={visibleText(data.titles.join('\n'))}>
        <span className="lineage-node-badge">{plural(data.count, 'session')} · click to show each</span>
        <span className="lineage-node-title">{visibleText(data.summary)}</span>
        <span className="lineage-node-stats">{visibleText(data.titles.slice(0, 2).join(' · '))}{data.titles.length > 2 ? ' …' : ''}</span>
        {handles}
      </button>
    );
  }
  if (data.kind === 'more') {
    return (
      <Link to={lineagePath(data.parentId)} className="lineage-node is-more nodrag" title="Draw the lineage from this node's parent">
        +{formatCount(data.count)} more
        {handles}
      </Link>
    );
  }
  const s = data.session;
  const badge = nodeBadge(s) ?? (data.role === 'target' ? 'this session' : 'session');
  const title = visibleText(s.title ?? s.label ?? shortId(s.id));
  const classes = ['lineage-node', `tone-${relationTone(s)}`, `role-${data.role}`];
  if (s.errorCount > 0) classes.push('is-failing');
  if (!s.hasLog) classes.push('no-log');
  if (s.logDeleted) classes.push('log-deleted');
  return (
    <Link
      to={sessionPath(s.id)}
      className={`${classes.join(' ')} nodrag`}
      aria-label={`${badge}${sourceOf({ source: s.sessionSource }) === 'cli' ? ' (CLI)' : ''}: ${title}`}
      aria-current={data.role === 'target' ? 'page' : undefined}
      title={`${title}\n${visibleText(s.id)}${s.toolSpanId ? `\nstarted by ${visibleText(`${s.toolName ?? 'tool call'} ${s.toolSpanId}`)}` : ''}`}
    >
      <span className="lineage-node-top">
        <span className="lineage-node-badge">{badge}</span>
        <SourceBadge source={s.sessionSource} />
        {s.errorCount > 0 && <span className="lineage-node-errors">{plural(s.errorCount, 'error')}</span>}
      </span>
      <span className="lineage-node-title">{title}</span>
      <span className="lineage-node-stats">
        {plural(s.eventCount, 'event')} in its log · {s.durationMs === null ? '—' : formatDuration(s.durationMs)}
        {s.childCount > 0 && ` · ${plural(s.childCount, 'child', 'children')}`}
        {!s.hasLog ? ' · no log read' : s.logDeleted ? ' · log deleted' : ''}
      </span>
      {handles}
    </Link>
  );
});
