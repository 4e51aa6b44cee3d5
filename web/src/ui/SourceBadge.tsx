import { sourceOf, type SessionSource } from '../../../shared/api';
import { Badge } from './Badge';

/**
 * "CLI" beside a Copilot CLI session wherever a session is named (list, header, search, triage, lineage). VS Code
 * sessions, the usual case, carry no badge: only the exception is marked.
 */
export function SourceBadge({ source }: { source?: SessionSource | null }) {
  if (sourceOf({ source }) !== 'cli') return null;
  return (
    <Badge tone="neutral" title="A Copilot CLI session (~/.copilot/session-state), not a VS Code chat">
      CLI
    </Badge>
  );
}

/** Said where a CLI session without session.shutdown shows its totals: they are not zero, they are unknown. */
export const NO_SHUTDOWN_TEXT = 'no shutdown: totals unknown';
export const NO_SHUTDOWN_TITLE =
  'This Copilot CLI session has no session.shutdown (still running, or it crashed): only per-call output tokens are on disk; its input, cache and credit totals are unknown';

/** A CLI session whose usage totals are missing (usageComplete false). */
export const lacksShutdown = (s: { source?: SessionSource | null; usageComplete?: boolean }) => sourceOf(s) === 'cli' && s.usageComplete === false;
