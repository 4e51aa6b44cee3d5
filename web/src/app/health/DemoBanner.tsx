import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DEBUG_LOG_SETTING } from '../../../../shared/debug-log-setting';
import { Banner } from '../../ui/Banner';
import { healthQueryOptions } from './health.queries';


/** Says so when the server shows its generated demo corpus, and how to record real sessions instead. */
export function DemoBanner() {
  const { data } = useQuery(healthQueryOptions());
  const [copied, setCopied] = useState(false);
  if (!data?.demo) return null;
  const copy = () => {
    void navigator.clipboard?.writeText(DEBUG_LOG_SETTING).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    });
  };
  return (
    <Banner
      tone="info"
      title="Demo data."
      actions={
        <button type="button" className="btn btn-small" onClick={copy}>
          {copied ? 'Copied' : 'Copy setting'}
        </button>
      }
    >
      {' '}
      These sessions come from a generated demo corpus, not from your machine. To record your own, add{' '}
      <code className="setting">{DEBUG_LOG_SETTING}</code> to your VS Code settings, use Copilot Chat, then start Chronoscope again.
    </Banner>
  );
}
