import { Background, Controls, MiniMap, ReactFlow, type ReactFlowInstance } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { LineageTraceResponse } from '../../../../shared/api';
import { LARGE_GRAPH, layoutTrace, unresolvedNodeId, type LineageFlowNode, type LineageNodeData } from './graph-layout';
import { LineageEdgeView } from './LineageEdgeView';
import { LineageNodeView, OpenGroupContext } from './LineageNodeView';
import './lineage.css';

const nodeTypes = { lineage: LineageNodeView };
const EMPTY: ReadonlySet<string> = new Set();
const edgeTypes = { lineage: LineageEdgeView };

/** Below this zoom the nodes' smallest text (11 px) reads smaller than 11 px: a fit that needs less is not used. */
export const LEGIBLE_ZOOM = 1;
/** Zoom a large graph opens at: node text readable. */
const OPEN_ZOOM = LEGIBLE_ZOOM;
const FIT_PADDING = 0.12;

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
  // groups of siblings the user opened; a new trace starts grouped again
  const [opened, setOpened] = useState<{ target: string; ids: ReadonlySet<string> }>({ target: trace.target.id, ids: new Set() });
  const openedIds = opened.target === trace.target.id ? opened.ids : EMPTY;
  const openGroup = useCallback((id: string) => setOpened((o) => ({ target: trace.target.id, ids: new Set([...(o.target === trace.target.id ? o.ids : []), id]) })), [trace.target.id]);
  const graph = useMemo(() => {
    started.current = performance.now();
    const g = layoutTrace(trace, openedIds);
    layoutMs.current = Math.round(performance.now() - started.current);
    return g;
  }, [trace, openedIds]);
  const boxRef = useRef<HTMLDivElement>(null);
  const flowRef = useRef<ReactFlowInstance<LineageFlowNode> | null>(null);
  const fitAll = graph.nodes.length <= LARGE_GRAPH;
  const onInit = useCallback(
    (flow: ReactFlowInstance<LineageFlowNode>) => {
      flowRef.current = flow;
      const box = boxRef.current;
      if (fitAll && box) {
        // Fitted whole only while that stays legible; else centred on the session at a readable zoom.
        const fit = Math.min(box.clientWidth / (graph.width * (1 + 2 * FIT_PADDING)), box.clientHeight / (graph.height * (1 + 2 * FIT_PADDING)));
        if (fit >= LEGIBLE_ZOOM) void flow.fitView({ padding: FIT_PADDING, maxZoom: 1 });
        else {
          const t = graph.nodes.find((n) => n.id === graph.targetId)!;
          void flow.setCenter(t.position.x + (t.width ?? 0) / 2, t.position.y + (t.height ?? 0) / 2, { zoom: LEGIBLE_ZOOM });
        }
      } else if (box) {
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
      <OpenGroupContext.Provider value={openGroup}>
        <ReactFlow<LineageFlowNode>
          key={trace.target.id}
          nodes={graph.nodes}
          edges={graph.edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onInit={onInit}
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
      </OpenGroupContext.Provider>
    </div>
  );
}
