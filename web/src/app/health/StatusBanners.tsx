import { useQuery } from '@tanstack/react-query';
import type { Health } from '../../../../shared/api';
import { DEBUG_LOG_SETTING } from '../../../../shared/debug-log-setting';
import { Banner } from '../../ui/Banner';
import { visibleText } from '../../ui/visible-text';
import { healthQueryOptions } from './health.queries';

/**
 * While the indexer cannot write, or a log folder is missing, nothing else on screen changes (no new events,
 * so no `indexed` message refreshes /api/health): the banner asks for health on its own, this often.
 */
const POLL_MS = 5000;

export interface StatusNotice {
  key: string;
  tone: 'danger' | 'warn' | 'info';
  title: string;
  text: string;
}

/** What the user must know before trusting the numbers on screen, most urgent first. */
export function statusNotices(h: Health): StatusNotice[] {
  const notices: StatusNotice[] = [];
  for (const p of h.problems) {
    if (p.kind === 'disk_full') notices.push({ key: `full:${p.path}`, tone: 'danger', title: 'Indexing paused.', text: p.reason });
  }
  for (const r of h.roots) {
    if (!r.exists || r.error) {
      notices.push({
        key: `root:${r.path}`,
        tone: 'warn',
        title: r.exists ? 'A log folder cannot be read.' : 'A log folder was not found.',
        text: `${r.error ?? `${r.path} does not exist`}. Chronoscope keeps watching and indexes it when it can.`,
      });
    }
  }
  if (!h.demo && h.files === 0 && h.backfill.state === 'idle' && notices.length === 0) {
    notices.push({
      key: 'no-logs',
      tone: 'info',
      title: 'No Copilot debug logs found.',
      text: `Nothing to show yet${h.roots.length ? ` under ${h.roots.map((r) => r.path).join(', ')}` : ''}. Turn on ${DEBUG_LOG_SETTING} in your VS Code settings and use Copilot Chat: new sessions appear here as they are written.`,
    });
  }
  return notices;
}

/** A banner under the top bar for a full disk, a missing log folder, or no logs at all. */
export function StatusBanners() {
  const { data } = useQuery({ ...healthQueryOptions(), refetchInterval: POLL_MS });
  if (!data) return null;
  return (
    <>
      {statusNotices(data).map((n) => (
        <Banner key={n.key} tone={n.tone} title={n.title}>
          {' '}
          {visibleText(n.text)}
        </Banner>
      ))}
    </>
  );
}
