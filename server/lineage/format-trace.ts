import type { LineageNode, LineageTraceResponse, LineageTreeNode } from '../../shared/api';
import { formatCount, plural } from '../../shared/format-numbers';
import { cutToWidth } from '../cli/text-table';

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  const m = Math.floor(s / 60);
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** How a session came from its parent, in a word or two: the label of a child, else fork / continuation. */
export function relationText(n: Pick<LineageNode, 'kind' | 'label'>): string {
  if (n.kind === 'fork') return n.label ? `fork (${n.label})` : 'fork';
  if (n.kind === 'continuation') return 'continuation';
  return n.label ?? (n.kind === 'child' ? 'child' : 'root');
}

/** A title on one line of at most `max` terminal columns (a CJK character takes two). */
const oneLine = (s: string, max: number) => cutToWidth(s.replace(/\s+/g, ' ').trim(), max);

/** `label  id  "title"  12 events · 1 error · 3.2s  via runSubagent Y1` */
export function nodeLine(n: LineageNode): string {
  const parts = [relationText(n), n.id];
  if (n.title) parts.push(`"${oneLine(n.title, 60)}"`);
  const facts = [plural(n.eventCount, 'event')];
  if (n.errorCount > 0) facts.push(plural(n.errorCount, 'error'));
  facts.push(formatDuration(n.durationMs));
  if (!n.hasLog) facts.push('no log read');
  else if (n.logDeleted) facts.push('log deleted');
  parts.push(facts.join(' · '));
  if (n.toolSpanId) parts.push(`via ${n.toolName ?? 'tool'} ${n.toolSpanId}`);
  return parts.join('  ');
}

function treeLines(nodes: LineageTreeNode[], prefix: string, out: string[]): void {
  nodes.forEach((n, i) => {
    const last = i === nodes.length - 1 && n.hiddenChildren === 0;
    out.push(`${prefix}${last ? '└─ ' : '├─ '}${nodeLine(n)}`);
    const inner = prefix + (last ? '   ' : '│  ');
    treeLines(n.descendants, inner, out);
    if (n.hiddenChildren > 0) out.push(`${inner}└─ … ${n.hiddenChildren} more not shown`);
  });
}

/** The text `chronoscope trace` prints: the target, its ancestors nearest first, then its descendants as a tree. */
export function formatTrace(t: LineageTraceResponse): string {
  const out: string[] = [];
  out.push(`session  ${nodeLine(t.target)}`);
  out.push(
    t.complete
      ? `complete: yes, root ${t.root.id}${t.root.id === t.target.id ? ' (this session)' : ''}`
      : `complete: no, parent ${t.unresolvedParentId} is not in the index`,
  );
  out.push('');
  out.push(`ancestors (nearest first): ${t.ancestors.length === 0 ? 'none' : t.ancestors.length}`);
  t.ancestors.forEach((a, i) => out.push(`  ${i + 1}. ${nodeLine(a)}`));
  if (!t.complete) out.push(`  ${t.ancestors.length + 1}. ${t.unresolvedParentId}  (not in the index)`);
  out.push('');
  out.push(`descendants: ${t.descendantCount === 0 ? 'none' : t.descendantCount}`);
  if (t.descendants.length > 0 || (t.truncated?.hiddenChildren ?? 0) > 0) {
    out.push(t.target.id);
    treeLines(t.descendants, '', out);
    if (t.descendants.length === 0 && t.truncated) out.push(`└─ … ${t.truncated.hiddenChildren} more not shown`);
  }
  if (t.truncated) {
    const why = [t.truncated.byDepth ? 'depth' : null, t.truncated.byLimit ? 'limit' : null].filter(Boolean).join(' and ');
    out.push(`(cut by ${why}: ${plural(t.truncated.hiddenChildren, 'child', 'children')} not shown; raise --depth / --limit)`);
  }
  return out.join('\n') + '\n';
}
