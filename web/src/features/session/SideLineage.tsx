import { Suspense, useState } from 'react';
import { lazyComponent } from '../../app/lazy-page';
import { plural } from '../../ui/format';

// The graph libraries (@xyflow/react, dagre) are a chunk of their own: the span tree, which is what the page is
// for, does not wait for them.
const LineagePanel = lazyComponent<{ sessionId: string; height?: string }, 'LineagePanel', typeof import('../lineage/LineagePanel')>(
  () => import('../lineage/LineagePanel'),
  'LineagePanel',
);

/** Past this many related sessions the graph waits for a click: laying it out costs more than it tells. */
const LINEAGE_AUTO_MAX = 60;

/**
 * The lineage panel beside the tree. A session with a crowd of children (hundreds of subagents) gets a
 * button instead: laying out that graph would hold up the span tree, which is what the page is for.
 */
export function SideLineage({ sessionId, childCount }: { sessionId: string; childCount: number }) {
  const [asked, setAsked] = useState(false);
  if (childCount + 1 > LINEAGE_AUTO_MAX && !asked) {
    return (
      <section className="lineage-placeholder" aria-label="Lineage">
        <p>
          This session has {plural(childCount, 'child session')} (subagents, title, summaries).{' '}
          <button type="button" className="link-btn" onClick={() => setAsked(true)}>
            Show the lineage graph
          </button>
        </p>
      </section>
    );
  }
  return (
    <Suspense fallback={<section className="lineage-placeholder" aria-label="Lineage" aria-busy="true" style={{ minHeight: '380px' }} />}>
      <LineagePanel sessionId={sessionId} height="380px" />
    </Suspense>
  );
}

