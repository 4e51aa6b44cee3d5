import { ApiRequestError } from '../api/client';
import { visibleText } from './visible-text';

/** A failed request, shown where its result would have been, with a way to try again (messages quote ids and queries). */
export function ErrorInline({ error, onRetry, what }: { error: unknown; onRetry?: () => void; what?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiRequestError ? error.code : null;
  return (
    <div className="error-inline" role="alert">
      <span className="error-inline-text">
        {what ? `Could not load ${what}: ` : ''}
        {visibleText(message)}
        {code && code !== 'network' && code !== 'http_error' && <code className="error-inline-code">{code}</code>}
      </span>
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
