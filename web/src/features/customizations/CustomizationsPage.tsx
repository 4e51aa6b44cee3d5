import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { TimeWindow } from '../../../../shared/api';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount } from '../../ui/format';
import { Segmented, WINDOW_OPTIONS } from '../../ui/Segmented';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { customizationsOptions, usageKeys } from '../usage/usage.queries';
import { CustomizationRows } from './CustomizationRows';
import './customizations.css';

/** URL state: the window and "skipped only". */
function useCustomizationsState(): [{ window: TimeWindow; skipped: boolean }, (n: Partial<{ window: TimeWindow; skipped: boolean }>) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => {
    const w = TimeWindow.safeParse(params.get('window'));
    return { window: w.success ? w.data : ('all' as TimeWindow), skipped: params.get('skipped') === '1' };
  }, [params]);
  const update = useCallback(
    (n: Partial<{ window: TimeWindow; skipped: boolean }>) =>
      setParams(() => {
        const next = { ...state, ...n };
        const p = new URLSearchParams();
        if (next.window !== 'all') p.set('window', next.window);
        if (next.skipped) p.set('skipped', '1');
        return p;
      }),
    [setParams, state],
  );
  return [state, update];
}

/** `/customizations`: every instruction file, skill, agent, hook and prompt file discovery loaded or skipped, and why. */
export function CustomizationsPage() {
  useDocumentTitle('Customizations');
  const [state, setState] = useCustomizationsState();
  // The router applies a URL change in a transition: shown at once here, or the controlled box flips back until it lands.
  const [skippedShown, setSkippedShown] = useState(state.skipped);
  useEffect(() => setSkippedShown(state.skipped), [state.skipped]);
  useLiveInvalidation(usageKeys.all, { throttleMs: 3000 });
  const q = useQuery(customizationsOptions({ window: state.window, skipped: state.skipped ? '1' : '0' }));
  return (
    <section className="page customizations-page">
      <header className="page-header">
        <h1>Customizations</h1>
        <div className="page-toolbar">
          <Segmented label="Window" value={state.window} options={WINDOW_OPTIONS} onChange={(window) => setState({ window })} />
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={skippedShown}
              onChange={(e) => {
                setSkippedShown(e.target.checked);
                setState({ skipped: e.target.checked });
              }}
            />{' '}
            Skipped only
          </label>
        </div>
      </header>
      <p className="muted customizations-intro">
        What Copilot&apos;s discovery found when sessions started, from the <code>discovery</code> entries of the logs.
        {q.data && ` ${formatCount(q.data.discoveryEvents)} entries read${q.data.capped ? ' (the newest only: narrow the window)' : ''}.`}
      </p>
      {q.isPending && <Spinner label="Reading discovery entries…" />}
      {q.isError && <ErrorInline error={q.error} onRetry={() => void q.refetch()} what="customizations" />}
      {q.data && q.data.rows.length === 0 && (
        <EmptyState title={state.skipped ? 'Nothing was skipped in this window' : 'No discovery entries in this window'}>
          {state.skipped ? 'Every instruction, skill and agent that was found was loaded.' : 'Pick a wider window.'}
        </EmptyState>
      )}
      {q.data && q.data.rows.length > 0 && <CustomizationRows rows={q.data.rows} showSessions />}
    </section>
  );
}
