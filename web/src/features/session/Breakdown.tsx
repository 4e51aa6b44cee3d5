import type { RequestTimeline, RequestBreakdownRow } from '../../../../shared/api';
import { formatDuration } from '../../ui/format';
import { callParts, requestParts, type Part } from './breakdown-parts';
import './timeline.css';

/**
 * Where the time of the selected event's request went, and of the selected model call: a stacked bar and the
 * numbers (the definitions: RequestBreakdown in shared/api/request-timeline.ts). Shown in the detail pane.
 */
export function Breakdown({ timeline, eventId }: { timeline: RequestTimeline; eventId: number }) {
  const req = timeline.request;
  if (!req || timeline.eventId !== eventId) return null;
  const b = req.breakdown;
  const call = b.calls.find((c) => c.id === eventId) ?? null;
  return (
    <section className="breakdown" aria-label="Where the time went">
      <h3 className="breakdown-title">
        {req.id === eventId ? 'This request' : 'Its request'} <span className="muted">{formatDuration(b.end - b.start)}</span>
      </h3>
      <PartsView parts={requestParts(b)} what="request" />
      {call && (
        <>
          <h3 className="breakdown-title">
            This model call <span className="muted">{formatDuration(call.dur)}</span>
          </h3>
          <PartsView parts={callParts(call)} what="model call" />
        </>
      )}
      <p className="breakdown-note muted">
        {b.callsTotal} model {b.callsTotal === 1 ? 'call' : 'calls'} of its own; parallel tools counted once, a subagent as its tool; idle: no model call or tool running.
      </p>
    </section>
  );
}

const value = (p: Part) => (p.ms === null ? '—' : formatDuration(p.ms));
const percent = (p: Part) => (p.ms === null ? '' : `${Math.round(p.share * 100)}%`);

function PartsView({ parts, what }: { parts: Part[]; what: string }) {
  const known = parts.filter((p) => p.ms !== null && p.share > 0);
  return (
    <>
      <div className="breakdown-bar" role="img" aria-label={`The ${what}'s time: ${parts.map((p) => `${p.label} ${value(p)}`).join(', ')}`}>
        {known.map((p) => (
          <span key={p.kind} className={`breakdown-seg b-${p.kind}`} style={{ width: `${(p.share * 100).toFixed(3)}%` }} title={`${p.label}: ${value(p)}`} />
        ))}
      </div>
      <dl className="breakdown-legend">
        {parts.map((p) => (
          <div key={p.kind} className="breakdown-item">
            <dt>
              <span className={`breakdown-swatch b-${p.kind}`} aria-hidden="true" />
              {p.label}
            </dt>
            <dd>
              {value(p)} <span className="muted">{percent(p)}</span>
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** A request row's own bar in the tree (its total and a small stacked bar), where a request has no duration. */
export function RequestRowBar({ totals }: { totals: RequestBreakdownRow }) {
  const parts = requestParts(totals);
  const summary = parts.map((p) => `${p.label} ${value(p)}`).join(', ');
  return (
    <span className="span-dur span-request-total" title={`The request: ${formatDuration(totals.end - totals.start)}. ${summary}`}>
      <span className="breakdown-mini" aria-hidden="true">
        {parts
          .filter((p) => p.ms !== null && p.share > 0)
          .map((p) => (
            <span key={p.kind} className={`breakdown-seg b-${p.kind}`} style={{ width: `${(p.share * 100).toFixed(2)}%` }} />
          ))}
      </span>
      {formatDuration(totals.end - totals.start)}
    </span>
  );
}
