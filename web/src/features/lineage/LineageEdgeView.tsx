import { BaseEdge, getSmoothStepPath, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';

/** Characters of a label that fit on a child's own run of edge; longer ones (tool names, escapes) end in "…". */
const LABEL_MAX = 20;

/**
 * A parent → child edge: the trunk bends right after the parent, so each child gets its own horizontal run,
 * and the label (how the child was started) sits on that run next to the child it names, never on a shared
 * trunk where labels of siblings would pile up.
 */
export const LineageEdgeView = memo(function LineageEdgeView({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, label }: EdgeProps) {
  const chars = typeof label === 'string' ? Array.from(label) : [];
  const [path] = getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius: 6, centerX: sourceX + 16 });
  return (
    <>
      <BaseEdge path={path} />
      {typeof label === 'string' && label !== '' && (
        <text x={targetX - 8} y={targetY - 5} textAnchor="end" className="lineage-edge-label">
          {chars.length > LABEL_MAX && <title>{label}</title>}
          {chars.length > LABEL_MAX ? `${chars.slice(0, LABEL_MAX - 1).join('')}…` : label}
        </text>
      )}
    </>
  );
});
