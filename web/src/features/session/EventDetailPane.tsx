import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { EventDetail } from '../../../../shared/api';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatBytes, formatCount, formatDateTime, formatDuration } from '../../ui/format';
import { Spinner } from '../../ui/Spinner';
import { copyText } from '../../ui/copy-text';
import { CopyButton } from '../../ui/CopyButton';
import { TermText } from '../../ui/HighlightTerms';
import { visibleText } from '../../ui/visible-text';
import { attrView, orderAttrs } from './attr-value';
import { BoundedText } from './BoundedText';
import { JsonTree } from './JsonTree';
import { inferredParentNote } from './parent-note';
import { DETAIL_MAX_CHARS, eventDetailOptions } from './session.queries';
import { spanKind, typeLabel } from './span-types';
import { copyMarkdownLabel, useCopyMarkdown } from '../export/ExportMenu';

/** Fetches one event (bounded to DETAIL_MAX_CHARS per string until asked for all) and shows it. */
export function ConnectedEventDetail({
  eventId,
  pageSessionId,
  sessionStart,
  inferredParent,
  onClose,
  breakdown,
}: {
  eventId: number;
  pageSessionId: string;
  sessionStart: number | null;
  /** the row's SpanRow.inferredParent, when the row is loaded */
  inferredParent: boolean;
  onClose: () => void;
  /** where the time of its request went (Breakdown), shown under the error */
  breakdown?: ReactNode;
}) {
  const [full, setFull] = useState(false);
  const q = useQuery(eventDetailOptions(eventId, full ? null : DETAIL_MAX_CHARS));
  const queryClient = useQueryClient();
  const copy = async () => {
    // Copy the whole event, never the cut one.
    const whole = full && q.data ? q.data : await queryClient.fetchQuery(eventDetailOptions(eventId, null));
    const { cut: _cut, raw: _raw, rawLength: _len, ...event } = whole;
    await copyText(JSON.stringify(event, null, 2));
  };
  return (
    <aside className="event-pane" aria-label="Event details">
      {q.isPending && (
        <div className="event-pane-loading">
          <Spinner label="Loading the event" />
        </div>
      )}
      {q.isError && <ErrorInline error={q.error} what="the event" onRetry={() => void q.refetch()} />}
      {q.data && <EventDetailView detail={q.data} pageSessionId={pageSessionId} sessionStart={sessionStart} inferredParent={inferredParent} onClose={onClose} onLoadAll={() => setFull(true)} onCopy={copy} breakdown={breakdown} />}
    </aside>
  );
}

export interface EventDetailViewProps {
  detail: EventDetail;
  pageSessionId: string;
  sessionStart: number | null;
  inferredParent?: boolean;
  onClose: () => void;
  onLoadAll: () => void;
  onCopy: () => Promise<void>;
  breakdown?: ReactNode;
}

/** Every attr of one event, JSON pretty-printed and foldable, where it came from, its error up front. */
export function EventDetailView({ detail: d, pageSessionId, sessionStart, inferredParent = false, onClose, onLoadAll, onCopy, breakdown }: EventDetailViewProps) {
  const [copied, setCopied] = useState(false);
  const markdown = useCopyMarkdown(pageSessionId, d.id);
  const failed = d.status === 'error';
  const kind = spanKind(d.type, d.tool);
  const errorText = d.error ?? (typeof d.attrs.error === 'string' ? d.attrs.error : null);
  const cutKeys = Object.keys(d.cut);
  const parentNote = inferredParentNote(d.type, d.parentSpanId, inferredParent);
  const keys = orderAttrs(Object.keys(d.attrs)).filter((k) => !(k === 'error' && errorText !== null));
  return (
    <div className="event-detail">
      <header className="event-detail-head">
        <span className={`span-dot t-${kind}${failed ? ' is-error' : ''}`} />
        <h2 className="event-detail-title" title={visibleText(d.name)}>
          {visibleText(d.name)}
        </h2>
        <span className="badge badge-neutral">{typeLabel(d.type)}</span>
        {failed && <span className="badge badge-danger">error</span>}
        <span className="event-detail-actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              void onCopy().then(() => {
                setCopied(true);
                setTimeout(() => setCopied(false), 1500);
              });
            }}
          >
            {copied ? 'Copied' : 'Copy as JSON'}
          </button>
          <button type="button" className="btn btn-small" aria-busy={markdown.state === 'copying'} onClick={() => void markdown.copy()} title="This span and what is under it, as Markdown">
            {copyMarkdownLabel(markdown.state)}
          </button>
          <button type="button" className="icon-btn" aria-label="Close details" title="Close (Esc)" onClick={onClose}>
            ×
          </button>
        </span>
      </header>

      {errorText !== null && (
        <div className="event-error" role="alert">
          <div className="event-error-title">Error</div>
          <BoundedText text={errorText} fullLength={d.cut.error} />
        </div>
      )}

      {breakdown}

      <dl className="kv event-facts">
        <dt>Started</dt>
        <dd>
          {d.ts !== null ? formatDateTime(d.ts) : '—'}
          {d.ts !== null && sessionStart !== null && <span className="muted">+{formatDuration(d.ts - sessionStart)} into the session</span>}
        </dd>
        {d.dur > 0 && (
          <>
            <dt>Duration</dt>
            <dd>{formatDuration(d.dur)}</dd>
          </>
        )}
        {d.ttft !== null && (
          <>
            <dt>First token</dt>
            <dd>{formatDuration(d.ttft)}</dd>
          </>
        )}
        {d.model && (
          <>
            <dt>Model</dt>
            <dd>{visibleText(d.model)}</dd>
          </>
        )}
        {(d.tokensIn !== null || d.tokensOut !== null) && (
          <>
            <dt>Tokens</dt>
            <dd className="num-left">
              {d.tokensIn === null ? '—' : formatCount(d.tokensIn)} in · {d.tokensOut === null ? '—' : formatCount(d.tokensOut)} out
              {d.tokensCached !== null && ` · ${formatCount(d.tokensCached)} cached`}
            </dd>
          </>
        )}
        {d.companions.length > 0 && (
          <>
            <dt>Files in effect</dt>
            <dd className="event-companions">
              {d.companions.map((c) =>
                c.id !== null ? (
                  <a key={`${c.kind}-${c.name}`} href={`/api/files/${c.id}`} target="_blank" rel="noreferrer">
                    {visibleText(c.name)}
                  </a>
                ) : (
                  <span key={`${c.kind}-${c.name}`} className="muted" title="named by the model call, but not on disk when indexed">
                    {visibleText(c.name)} (missing)
                  </span>
                ),
              )}
            </dd>
          </>
        )}
        <dt>Span</dt>
        <dd className="mono event-span">
          <span>{d.spanId !== null ? visibleText(d.spanId) : '—'}</span>
          {d.parentSpanId && <span className="muted">parent {visibleText(d.parentSpanId)}</span>}
        </dd>
        {parentNote && (
          <>
            <dt>Parent</dt>
            <dd className="event-parent-note">{parentNote}</dd>
          </>
        )}
        {d.sessionId !== pageSessionId && (
          <>
            <dt>Session</dt>
            <dd>
              <Link to={`/session/${encodeURIComponent(d.sessionId)}?event=${d.id}`}>{visibleText(d.sessionId)}</Link>
              <span className="muted">(child log)</span>
            </dd>
          </>
        )}
        <dt>From</dt>
        <dd className="event-source">
          <span className="mono wrap" title={visibleText(d.file.path)}>
            {visibleText(d.file.path)}:{d.file.lineNo}
          </span>
          <CopyButton text={d.file.path} what="log file path" />
          {d.file.deleted && <span className="badge badge-warn">file deleted</span>}
        </dd>
        {(d.rIdx > 0 || d.dup === 1) && (
          <>
            <dt>Notes</dt>
            <dd>
              {d.rIdx > 0 && <span className="badge badge-neutral">VS Code run {d.rIdx + 1}</span>}
              {d.dup === 1 && <span className="badge badge-neutral">replayed copy: other sessions hold it too</span>}
            </dd>
          </>
        )}
      </dl>

      {cutKeys.length > 0 && (
        <div className="event-cut-note">
          <span>
            Long values are shown in part ({cutKeys.map((k) => `${visibleText(k)}: ${formatBytes(d.cut[k])}`).join(', ')}).
          </span>
          <button type="button" className="btn btn-small" onClick={onLoadAll}>
            Load everything
          </button>
        </div>
      )}

      <section className="event-attrs" aria-label="Attributes">
        {keys.map((k) => (
          <AttrBlock key={k} name={k} value={d.attrs[k]} serverCut={d.cut[k]} />
        ))}
        {keys.length === 0 && errorText === null && <p className="muted">No attributes.</p>}
      </section>

      <details className="event-raw">
        <summary>
          Raw line <span className="muted">({formatBytes(d.rawLength)})</span>
        </summary>
        <BoundedText text={d.raw} fullLength={d.rawLength} />
      </details>
    </div>
  );
}

function AttrBlock({ name, value, serverCut }: { name: string; value: unknown; serverCut: number | undefined }) {
  const view = attrView(value);
  return (
    <div className="attr">
      <div className="attr-name">
        <span>{visibleText(name)}</span>
        {view.kind === 'text' && view.cut?.by === 'logger' && (
          <span className="badge badge-warn" title="Copilot's logger keeps only the first 5,000 characters of this value">
            cut by Copilot
          </span>
        )}
        {view.kind === 'text' && view.cut?.by === 'otel' && (
          <span className="badge badge-warn" title="OpenTelemetry capture keeps 64,000 characters">
            cut by Copilot (of {formatCount(view.cut.originalChars)} chars)
          </span>
        )}
        {serverCut !== undefined && <span className="badge badge-neutral">first {formatBytes(DETAIL_MAX_CHARS)} of {formatBytes(serverCut)}</span>}
      </div>
      {view.kind === 'json' && <JsonTree value={view.value} openDepth={name === 'inputMessages' ? 1 : 2} />}
      {view.kind === 'text' && view.text.length <= 160 && !view.text.includes('\n') && serverCut === undefined ? (
        <div className="attr-scalar mono wrap">
          <TermText text={view.text} />
        </div>
      ) : (
        view.kind === 'text' && <BoundedText text={view.text} fullLength={serverCut} />
      )}
      {view.kind === 'scalar' && <div className="attr-scalar mono">{String(view.value)}</div>}
    </div>
  );
}
