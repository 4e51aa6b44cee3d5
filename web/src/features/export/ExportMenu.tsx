import { useState } from 'react';
import { apiUrl, getText } from '../../api/client';
import './export.css';

/** What VS Code's Agent Debug Log import drops (INTEROP §1): said in the menu, so nobody expects it there. */
const VSCODE_LOSES = 'time to first token, cached tokens, credits, prompts and the system prompt and tool files';

/** Copies a span's (or the session's) Markdown; says so for a moment, or why it could not. */
export function useCopyMarkdown(sessionId: string, eventId?: number) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
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

/** The session page's Export menu: OTLP JSON (VS Code, collectors), Markdown (an issue, an LLM). */
export function ExportMenu({ sessionId }: { sessionId: string }) {
  const base = `/api/sessions/${encodeURIComponent(sessionId)}/export`;
  const { state, copy } = useCopyMarkdown(sessionId);
  return (
    <details className="export-menu">
      <summary className="btn btn-small">Export</summary>
      <div className="export-menu-body" role="menu" aria-label="Export this session">
        <a role="menuitem" className="export-item" href={apiUrl(base, { format: 'otlp' })} download>
          <span className="export-item-title">OTLP JSON</span>
          <span className="export-item-note">
            Opens in VS Code&apos;s Agent Debug Log panel (Import) and in any OpenTelemetry collector, child logs included. VS Code will not show {VSCODE_LOSES}: they are in
            the file as extra attributes.
          </span>
        </a>
        <a role="menuitem" className="export-item" href={apiUrl(base, { format: 'md', download: '1' })} download>
          <span className="export-item-title">Markdown file</span>
          <span className="export-item-note">Requests, model and tool calls, subagents; cut at 30,000 characters.</span>
        </a>
        <button role="menuitem" type="button" className="export-item" onClick={() => void copy()}>
          <span className="export-item-title">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : 'Copy as Markdown'}</span>
          <span className="export-item-note">To paste into an issue or a chat with a model.</span>
        </button>
      </div>
    </details>
  );
}
