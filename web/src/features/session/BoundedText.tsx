import { useState } from 'react';
import { formatBytes } from '../../ui/format';
import { TermText } from '../../ui/HighlightTerms';

/** First characters shown of a long value, and how many more each "show more" adds. */
export const TEXT_FIRST = 8 * 1024;
export const TEXT_MORE = 64 * 1024;

/**
 * Log text as text (never HTML), bounded: a 10 MB value shows its first few KB and grows on request, so the
 * tab never lays out megabytes at once. `fullLength` is the real length when the server sent less.
 */
export function BoundedText({ text, fullLength, className, first = TEXT_FIRST }: { text: string; fullLength?: number; className?: string; first?: number }) {
  const [shown, setShown] = useState(first);
  const visible = text.length > shown ? text.slice(0, shown) : text;
  const hiddenHere = text.length - visible.length;
  const total = Math.max(fullLength ?? text.length, text.length);
  return (
    <div className={`bounded-text ${className ?? ''}`}>
      <pre className="bounded-text-pre">
        <TermText text={visible} block />
      </pre>
      {(hiddenHere > 0 || total > text.length) && (
        <div className="bounded-text-more">
          <span className="muted">
            showing {formatBytes(visible.length)} of {formatBytes(total)}
          </span>
          {hiddenHere > 0 && (
            <button type="button" className="btn btn-small" onClick={() => setShown((s) => s + TEXT_MORE)}>
              Show more
            </button>
          )}
          {hiddenHere > 0 && hiddenHere <= 4 * TEXT_MORE && (
            <button type="button" className="btn btn-small" onClick={() => setShown(text.length)}>
              Show all
            </button>
          )}
        </div>
      )}
    </div>
  );
}
