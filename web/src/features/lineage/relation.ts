import type { LineageNode } from '../../../../shared/api';
import { visibleText } from '../../ui/visible-text';

/** "runSubagent-Explore" → "Explore"; other labels as they are. */
export function agentName(label: string): string {
  const m = /^runSubagent-(.+)$/.exec(label);
  return m ? m[1] : label;
}

/** The badge on a node: what the session is to its parent (subagent name, title, summarize, fork…), as shown. */
export function nodeBadge(n: Pick<LineageNode, 'kind' | 'label'>): string | null {
  if (n.kind === 'fork') return 'fork';
  if (n.kind === 'continuation') return 'continued';
  if (n.kind === 'child') {
    if (!n.label) return 'child';
    if (n.label.startsWith('runSubagent-')) return `subagent · ${visibleText(agentName(n.label))}`;
    if (n.label === 'searchSubagent') return 'search subagent';
    return visibleText(n.label);
  }
  return null;
}

/** The label on an edge: how the child was started (the tool call, else the kind of child or fork), as shown. */
export function edgeText(n: Pick<LineageNode, 'kind' | 'label' | 'toolName' | 'toolSpanId' | 'source'>): string {
  if (n.kind === 'fork') return 'forked';
  if (n.kind === 'continuation') return 'continued';
  if (n.toolName) return visibleText(n.toolName);
  if (n.toolSpanId) return 'tool call';
  return n.label !== null ? visibleText(n.label) : 'child';
}

export type RelationTone = 'subagent' | 'helper' | 'fork' | 'root';

/** Colour family of a node: subagents, helper children (title, summarize…), forks, roots. */
export function relationTone(n: Pick<LineageNode, 'kind' | 'label' | 'toolSpanId'>): RelationTone {
  if (n.kind === 'fork' || n.kind === 'continuation') return 'fork';
  if (n.kind === 'child') return n.toolSpanId !== null || /^(runSubagent|searchSubagent)/.test(n.label ?? '') ? 'subagent' : 'helper';
  return 'root';
}
