import { Background, Controls, MiniMap, ReactFlow, type ReactFlowInstance } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useMemo, useRef } from 'react';
import type { LineageTraceResponse } from '../../../../shared/api';
import { LARGE_GRAPH, layoutTrace, unresolvedNodeId, type LineageFlowNode, type LineageNodeData } from './graph-layout';
import { LineageEdgeView } from './LineageEdgeView';
import { LineageNodeView } from './LineageNodeView';
import './lineage.css';

const nodeTypes = { lineage: LineageNodeView };
const edgeTypes = { lineage: LineageEdgeView };

/** Zoom a large graph opens at: node text readable. */
const OPEN_ZOOM = 0.9;

const minimapColor = (n: LineageFlowNode): string => {
  const d: LineageNodeData = n.data;
  if (d.kind !== 'session') return 'var(--fg-subtle)';
  if (d.role === 'target') return 'var(--accent)';
  return d.session.errorCount > 0 ? 'var(--danger)' : 'var(--fg-subtle)';
};

export interface LineageGraphProps {
  trace: LineageTraceResponse;
  /** CSS height of the graph box */
  height: string;
  /** called once the graph is on screen, with ms from the start of layout (benchmarks read it too) */
  onRendered?: (ms: number) => void;
}

/**
 * The lineage as a graph (dagre layout, @xyflow/react rendering): pan with the mouse, zoom with the wheel or
 * the controls; click a session to open it. Renders plain props; ConnectedLineage fetches.
 */
export function LineageGraph({ trace, height, onRendered }: LineageGraphProps) {
  const started = useRef(performance.now());
  const layoutMs = useRef(0);
  const graph = useMemo(() => {
    started.current = performance.now();
    const g = layoutTrace(trace);
    layoutMs.current = Math.round(performance.now() - started.current);
    return g;
  }, [trace]);
  const boxRef = useRef<HTMLDivElement>(null);
  const fitAll = graph.nodes.length <= LARGE_GRAPH;
  const onInit = useCallback(
    (flow: ReactFlowInstance<LineageFlowNode>) => {
      const box = boxRef.current;
      if (!fitAll && box) {
        // Readable first: the target (and the parent before it) at the top left, where the first-child row
        // starts (graph-layout aligns a large tree to its first children); the rest is a pan or the minimap away.
        const byId = new Map(graph.nodes.map((n) => [n.id, n]));
        const target = byId.get(graph.targetId)!;
        const before = trace.ancestors[0] ?? null;
        const left = before ? byId.get(before.id) : !trace.complete ? byId.get(unresolvedNodeId(trace.unresolvedParentId)) : undefined;
        const x = 24 - (left ?? target).position.x * OPEN_ZOOM;
        const y = Math.min(box.clientHeight / 3, 40) - target.position.y * OPEN_ZOOM;
        void flow.setViewport({ x, y, zoom: OPEN_ZOOM });
      }
      // next frame: the nodes are painted at their final place
      requestAnimationFrame(() => {
        const ms = Math.round(performance.now() - started.current);
        boxRef.current?.setAttribute('data-layout-ms', String(layoutMs.current));
        boxRef.current?.setAttribute('data-render-ms', String(ms));
        performance.mark('lineage-graph-rendered', { detail: { ms, nodes: graph.nodes.length } });
        onRendered?.(ms);
      });
    },
    [graph, trace, fitAll, onRendered],
  );
  return (
    <div
      ref={boxRef}
      className="lineage-graph"
      style={{ height }}
      role="group"
      aria-label={`Lineage graph: ${graph.nodes.length} nodes`}
      data-nodes={graph.nodes.length}
    >
      <ReactFlow<LineageFlowNode>
        key={trace.target.id}
        nodes={graph.nodes}
        edges={graph.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onInit={onInit}
        fitView={fitAll}
        fitViewOptions={{ padding: 0.12, maxZoom: 1 }}
        minZoom={0.05}
        maxZoom={2}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        onlyRenderVisibleElements={graph.nodes.length > 150}
      >
        <Background gap={24} size={1} />
        <Controls showInteractive={false} />
        {graph.nodes.length > 12 && <MiniMap pannable zoomable nodeColor={minimapColor} nodeStrokeWidth={0} ariaLabel="Overview of the lineage graph" />}
      </ReactFlow>
    </div>
  );
}
