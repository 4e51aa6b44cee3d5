import { useState } from 'react';
import { apiUrl, errorFromResponse, getText } from '../../api/client';
import './export.css';

/** What VS Code's Agent Debug Log import drops (INTEROP §1): said in the menu, so nobody expects it there. */
const VSCODE_LOSES = 'time to first token, cached tokens, credits, prompts and the system prompt and tool files';

type CopyState = 'idle' | 'copying' | 'copied' | 'failed';

/** What a Copy as Markdown button says: the first copy of a span in the largest sessions reads their tree (~1.5 s). */
export const copyMarkdownLabel = (state: CopyState): string =>
  ({ idle: 'Copy as Markdown', copying: 'Copying…', copied: 'Copied', failed: 'Could not copy' })[state];

/** Copies a span's (or the session's) Markdown; says so while it does, for a moment after, or why it could not. */
export function useCopyMarkdown(sessionId: string, eventId?: number) {
  const [state, setState] = useState<CopyState>('idle');
  const copy = async () => {
    setState('copying');
    try {
      const md = await getText(`/api/sessions/${encodeURIComponent(sessionId)}/export`, { format: 'md', event: eventId });
      await navigator.clipboard.writeText(md);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1800);
  };
  return { state, copy };
}

/** The file name the server gives (Content-Disposition), else the session's. */
function attachmentName(res: Response, fallback: string): string {
  return /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? fallback;
}

/**
 * Downloads the OTLP file through fetch, so that a refusal is said in the menu: a plain download link saved the
 * server's error body, or failed with the browser's "server problem", for a session too large for VS Code's import
 * (the answer says its size and the `--split` command that writes it in parts).
 */
function useOtlpDownload(sessionId: string, href: string) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const download = async (e: React.MouseEvent) => {
    e.preventDefault();
    setState({ busy: true, error: null });
    try {
      const res = await fetch(href);
      if (!res.ok) throw await errorFromResponse(res);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = attachmentName(res, `${sessionId}.otlp.json`);
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ busy: false, error: null });
    } catch (err) {
      setState({ busy: false, error: err instanceof Error ? err.message : String(err) });
    }
  };
  return { ...state, download };
}

/** The session page's Export menu: OTLP JSON (VS Code, collectors), Markdown (an issue, an LLM). */
export function ExportMenu({ sessionId }: { sessionId: string }) {
  const base = `/api/sessions/${encodeURIComponent(sessionId)}/export`;
  const { state, copy } = useCopyMarkdown(sessionId);
  const otlpHref = apiUrl(base, { format: 'otlp' });
  const otlp = useOtlpDownload(sessionId, otlpHref);
  return (
    <details className="export-menu">
      <summary className="btn btn-small">Export</summary>
      <div className="export-menu-body" role="menu" aria-label="Export this session">
        <a role="menuitem" className="export-item" href={otlpHref} download onClick={(e) => void otlp.download(e)} aria-busy={otlp.busy}>
          <span className="export-item-title">{otlp.busy ? 'OTLP JSON: preparing…' : 'OTLP JSON'}</span>
          <span className="export-item-note">
            Opens in VS Code&apos;s Agent Debug Log panel (Import) and in any OpenTelemetry collector, child logs included. VS Code will not show {VSCODE_LOSES}: they are in
            the file as extra attributes.
          </span>
          {otlp.error && (
            <span className="export-item-error" role="alert">
              {otlp.error}
            </span>
          )}
        </a>
        <a role="menuitem" className="export-item" href={apiUrl(base, { format: 'md', download: '1' })} download>
          <span className="export-item-title">Markdown file</span>
          <span className="export-item-note">Requests, model and tool calls, subagents; cut at 30,000 characters.</span>
        </a>
        <button role="menuitem" type="button" className="export-item" aria-busy={state === 'copying'} onClick={() => void copy()}>
          <span className="export-item-title">{copyMarkdownLabel(state)}</span>
          <span className="export-item-note">To paste into an issue or a chat with a model.</span>
        </button>
      </div>
    </details>
  );
}
