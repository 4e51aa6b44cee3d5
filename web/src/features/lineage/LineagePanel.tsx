import { useId } from 'react';
import { Link } from 'react-router';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { ConnectedLineage } from './ConnectedLineage';
import { lineageKeys } from './lineage.queries';
import { lineagePath } from './url';

/**
 * The lineage of one session, for embedding in the session view: where it came from and what branched off
 * it, as a graph (click a node to open that session), with a link to the full page.
 */
export function LineagePanel({ sessionId, height = '360px' }: { sessionId: string; height?: string }) {
  const headingId = useId();
  useLiveInvalidation(lineageKeys.traces(), { when: (m) => m.sessionIds.includes(sessionId) });
  return (
    <section className="lineage-panel" aria-labelledby={headingId}>
      <header className="lineage-panel-header">
        <h2 id={headingId}>Lineage</h2>
        <Link to={lineagePath(sessionId)} className="lineage-panel-open">
          Open full lineage
        </Link>
      </header>
      <ConnectedLineage sessionId={sessionId} bounds={{ depth: 6, limit: 300 }} height={height} />
    </section>
  );
}
