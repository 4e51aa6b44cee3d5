import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ImportResponse } from '../../../../shared/api';
import { postText } from '../../api/client';
import { Banner } from '../../ui/Banner';
import { plural } from '../../ui/format';
import './export.css';

type Result = { ok: true; r: ImportResponse } | { ok: false; message: string };

/**
 * Drop an OTLP JSON file anywhere on the page to import it (VS Code's export, Copilot's otel.outfile, ours):
 * the sessions appear marked "imported" as soon as the indexer has read them.
 */
export function ImportDrop() {
  const [over, setOver] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const qc = useQueryClient();
  useEffect(() => {
    const hasFile = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const onOver = (e: DragEvent) => {
      if (!hasFile(e)) return;
      e.preventDefault();
      setOver(true);
    };
    const onLeave = (e: DragEvent) => {
      if (e.relatedTarget === null) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFile(e)) return;
      e.preventDefault();
      setOver(false);
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      void file
        .text()
        .then((text) => postText<ImportResponse>('/api/import', text))
        .then(
          (r) => {
            setResult({ ok: true, r });
            setTimeout(() => void qc.invalidateQueries(), 1500);
          },
          (err: unknown) => setResult({ ok: false, message: err instanceof Error ? err.message : String(err) }),
        );
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [qc]);
  return (
    <>
      {over && <div className="import-drop">Drop an OTLP JSON file to import its sessions</div>}
      {result && (
        <Banner
          tone={result.ok ? 'info' : 'danger'}
          actions={
            <button type="button" className="btn btn-small" onClick={() => setResult(null)}>
              Dismiss
            </button>
          }
        >
          {result.ok ? (
            <>
              Imported {result.r.imported.length === 0 ? 'nothing new' : ''}
              {result.r.imported.map((s, i) => (
                <span key={s.sessionId}>
                  {i > 0 ? ', ' : ''}
                  <Link to={`/session/${encodeURIComponent(s.sessionId)}`}>{s.sessionId}</Link> ({plural(s.events, 'event')})
                </span>
              ))}
              {result.r.skipped.length > 0 && ` · already indexed from their logs: ${result.r.skipped.join(', ')}`}
            </>
          ) : (
            <>Could not import that file: {result.message}</>
          )}
        </Banner>
      )}
    </>
  );
}
