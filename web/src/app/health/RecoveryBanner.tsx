import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Health, Problem } from '../../../../shared/api';
import { Banner } from '../../ui/Banner';
import { healthQueryOptions } from './health.queries';

const DISMISSED_KEY = 'chronoscope.recovery-dismissed';

/** The newest "index damaged and rebuilt" problem, if any (server/index-recovery.ts). */
export function recoveryProblem(h: Health | undefined): Problem | null {
  return h?.problems.filter((p) => p.kind === 'corrupt').sort((a, b) => b.at - a.at)[0] ?? null;
}

/** The banner's one sentence: what was lost, without the list (the health page has the whole message). */
export function recoverySummary(reason: string): string {
  const after = reason.replace(/^The index at .*? and rebuilt from the logs\. /, '');
  const lost = /^(\d+ sessions? whose logs are gone could not be recovered)/.exec(after);
  return lost ? `${lost[1]}: Details lists them.` : after;
}

/**
 * Says so when the index was found damaged and rebuilt from the logs, with what could not be recovered. The
 * health page keeps the message; the banner can be dismissed once read (per recovery, in this browser).
 */
export function RecoveryBanner() {
  const { data } = useQuery(healthQueryOptions());
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED_KEY));
  const p = recoveryProblem(data);
  if (!p || dismissed === String(p.at)) return null;
  const dismiss = () => {
    localStorage.setItem(DISMISSED_KEY, String(p.at));
    setDismissed(String(p.at));
  };
  return (
    <Banner
      tone="warn"
      title="The index was damaged and has been rebuilt from the logs."
      actions={
        <>
          <Link to="/health" className="btn btn-small">
            Details
          </Link>
          <button type="button" className="btn btn-small" onClick={dismiss}>
            Dismiss
          </button>
        </>
      }
    >
      {' '}
      {recoverySummary(p.reason)}
    </Banner>
  );
}
