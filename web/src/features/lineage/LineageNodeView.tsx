import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDuration, plural, shortId } from '../../ui/format';
import { visibleText } from '../../ui/visible-text';
import type { LineageFlowNode } from './graph-layout';
import { nodeBadge, relationTone } from './relation';
import { lineagePath, sessionPath } from './url';

const handles = (
  <>
    <Handle type="target" position={Position.Left} isConnectable={false} className="lineage-handle" />
    <Handle type="source" position={Position.Right} isConnectable={false} className="lineage-handle" />
  </>
);

/**
 * One node of the lineage graph. A session is a link to its page (so the graph is keyboard- and
 * role-navigable); the unresolved parent is a dashed box; "+N more" re-centres the lineage on its parent.
 */
export const LineageNodeView = memo(function LineageNodeView({ data }: NodeProps<LineageFlowNode>) {
  if (data.kind === 'unresolved') {
    return (
      <div className="lineage-node is-unresolved" title={`Parent session ${visibleText(data.sessionId)} is not in the index (another workspace, or deleted before it was read)`}>
        <span className="lineage-node-badge">not in the index</span>
        <span className="lineage-node-title mono">{visibleText(shortId(data.sessionId))}</span>
        <span className="lineage-node-stats">parent session, never read</span>
        {handles}
      </div>
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
      aria-label={`${badge}: ${title}`}
      aria-current={data.role === 'target' ? 'page' : undefined}
      title={`${title}\n${visibleText(s.id)}${s.toolSpanId ? `\nstarted by ${visibleText(`${s.toolName ?? 'tool call'} ${s.toolSpanId}`)}` : ''}`}
    >
      <span className="lineage-node-top">
        <span className="lineage-node-badge">{badge}</span>
        {s.errorCount > 0 && <span className="lineage-node-errors">{plural(s.errorCount, 'error')}</span>}
      </span>
      <span className="lineage-node-title">{title}</span>
      <span className="lineage-node-stats">
        {plural(s.eventCount, 'event')} · {s.durationMs === null ? '—' : formatDuration(s.durationMs)}
        {s.childCount > 0 && ` · ${plural(s.childCount, 'child', 'children')}`}
        {!s.hasLog ? ' · no log read' : s.logDeleted ? ' · log deleted' : ''}
      </span>
      {handles}
    </Link>
  );
});
