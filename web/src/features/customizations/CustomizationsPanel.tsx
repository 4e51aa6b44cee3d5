import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorInline } from '../../ui/ErrorInline';
import { Spinner } from '../../ui/Spinner';
import { customizationsOptions } from '../usage/usage.queries';
import { CustomizationRows } from './CustomizationRows';
import './customizations.css';

/** The session view's panel: what this session loaded and skipped; fetched when opened. */
export function CustomizationsPanel({ sessionId }: { sessionId: string }) {
  const [open, setOpen] = useState(false);
  const q = useQuery({ ...customizationsOptions({ session: sessionId }), enabled: open });
  const skipped = q.data?.rows.filter((r) => r.status !== 'loaded').length ?? 0;
  return (
    <details className="session-customizations" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Customizations{q.data && <span className="muted"> ({q.data.rows.length - skipped} loaded{skipped > 0 ? `, ${skipped} skipped or failed` : ''})</span>}
      </summary>
      {open && q.isPending && <Spinner label="Reading discovery entries…" />}
      {q.isError && <ErrorInline error={q.error} onRetry={() => void q.refetch()} what="customizations" />}
      {q.data && q.data.rows.length === 0 && <p className="muted">No discovery entries in this session.</p>}
      {q.data && q.data.rows.length > 0 && <CustomizationRows rows={q.data.rows} showSessions={false} />}
    </details>
  );
}
