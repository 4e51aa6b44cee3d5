import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LineageTraceResponse } from '../../../../shared/api';
import { ApiRequestError } from '../../api/client';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount, plural, shortId } from '../../ui/format';
import { CopyButton } from '../../ui/CopyButton';
import { visibleText } from '../../ui/visible-text';
import { Spinner } from '../../ui/Spinner';
import { LineageGraph } from './LineageGraph';
import { lineageTraceOptions } from './lineage.queries';
import { lineagePath, sessionPath, type TraceBounds } from './url';

/** One line saying whether the chain reaches the top, and how big the tree below is. */
export function TraceSummary({ trace, onShowAll }: { trace: LineageTraceResponse; onShowAll?: () => void }) {
  return (
    <p className="lineage-summary">
      {trace.complete ? (
        trace.root.id === trace.target.id ? (
          <span>This session is a root: it has no parent.</span>
        ) : (
          <span>
            {plural(trace.ancestors.length, 'ancestor')} up to the root{' '}
            <Link to={lineagePath(trace.root.id)}>{visibleText(trace.root.title ?? shortId(trace.root.id))}</Link>.
          </span>
        )
      ) : (
        <span className="lineage-unresolved-note">
          Incomplete: parent <code>{visibleText(trace.unresolvedParentId)}</code>
          <CopyButton text={trace.unresolvedParentId} what="parent session id" /> is not in the index
          {trace.ancestors.length > 0 ? ` (after ${plural(trace.ancestors.length, 'ancestor')})` : ''}.
        </span>
      )}{' '}
      <span>{trace.descendantCount === 0 ? 'Nothing branched off it.' : `${plural(trace.descendantCount, 'descendant')}.`}</span>
      {trace.truncated && (
        <span className="lineage-cut">
          {' '}
          Cut by {[trace.truncated.byDepth && 'depth', trace.truncated.byLimit && 'size'].filter(Boolean).join(' and ')}:{' '}
          {formatCount(trace.truncated.hiddenChildren)} more children not drawn.
          {onShowAll && (
            <>
              {' '}
              <button type="button" className="btn btn-small" onClick={onShowAll}>
                Draw more
              </button>
            </>
          )}
        </span>
      )}
    </p>
  );
}

/** Fetches a trace and renders it: loading, the one error body inline (a cycle names its sessions), the graph. */
export function ConnectedLineage({
  sessionId,
  bounds,
  height,
  header,
  onShowAll,
}: {
  sessionId: string;
  bounds?: TraceBounds;
  height: string;
  header?: (trace: LineageTraceResponse) => ReactNode;
  onShowAll?: (trace: LineageTraceResponse) => void;
}) {
  const q = useQuery(lineageTraceOptions(sessionId, bounds));
  if (q.isPending) {
    return (
      <div className="lineage-loading" style={{ height }}>
        <Spinner label="Loading lineage" />
      </div>
    );
  }
  if (q.isError) {
    const cycle = q.error instanceof ApiRequestError && q.error.code === 'lineage_cycle' ? (q.error.details as { cycle?: string[] } | undefined)?.cycle : undefined;
    return (
      <div className="lineage-error">
        <ErrorInline error={q.error} what="the lineage" onRetry={q.error instanceof ApiRequestError && q.error.isClientError ? undefined : () => void q.refetch()} />
        {cycle && (
          <ol className="lineage-cycle" aria-label="Sessions in the cycle">
            {cycle.map((id) => (
              <li key={id}>
                <Link to={sessionPath(id)} className="mono">
                  {visibleText(id)}
                </Link>
              </li>
            ))}
          </ol>
        )}
      </div>
    );
  }
  const trace = q.data;
  return (
    <>
      {header?.(trace)}
      <TraceSummary trace={trace} onShowAll={onShowAll ? () => onShowAll(trace) : undefined} />
      <LineageGraph trace={trace} height={height} />
    </>
  );
}
