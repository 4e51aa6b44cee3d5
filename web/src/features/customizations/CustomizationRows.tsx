import { Link } from 'react-router';
import type { CustomizationRow } from '../../../../shared/api';
import { Badge } from '../../ui/Badge';
import { formatCount, plural, shortId } from '../../ui/format';
import { RelativeTime } from '../../ui/RelativeTime';
import { visibleText } from '../../ui/visible-text';

const KIND_LABEL: Record<CustomizationRow['kind'], string> = {
  instruction: 'Instruction files',
  skill: 'Skills',
  agent: 'Agents',
  hook: 'Hooks',
  prompt: 'Prompt files',
  other: 'Other',
};
const KIND_ORDER: CustomizationRow['kind'][] = ['instruction', 'skill', 'agent', 'hook', 'prompt', 'other'];

const sessionHref = (id: string, eventId?: number) => `/session/${encodeURIComponent(id)}${eventId ? `?event=${eventId}` : ''}`;

/** Customizations grouped by kind: each with its status, reason, what to fix and the sessions where it was seen. */
export function CustomizationRows({ rows, showSessions }: { rows: readonly CustomizationRow[]; showSessions: boolean }) {
  return (
    <div className="customization-groups">
      {KIND_ORDER.filter((k) => rows.some((r) => r.kind === k)).map((kind) => (
        <section key={kind} className="customization-group" aria-label={KIND_LABEL[kind]}>
          <h2 className="customization-kind">{KIND_LABEL[kind]}</h2>
          <ul className="customization-list">
            {rows
              .filter((r) => r.kind === kind)
              .map((r) => (
                <li key={`${r.status}\u0000${r.name}\u0000${r.reason ?? ''}`} className={`customization customization-${r.status}`}>
                  <div className="customization-line">
                    <Badge tone={r.status === 'loaded' ? 'success' : r.status === 'skipped' ? 'warn' : 'danger'}>{r.status}</Badge>
                    <code className="customization-name">{visibleText(r.name)}</code>
                    {r.reason && r.status === 'skipped' && <span className="customization-reason">{visibleText(r.reason)}</span>}
                    {showSessions && (
                      <span className="muted customization-seen">
                        {plural(r.sessions, 'session')} · <RelativeTime ts={r.lastSeen} />
                      </span>
                    )}
                  </div>
                  {r.status === 'failed' && r.reason && <p className="customization-error mono">{visibleText(r.reason)}</p>}
                  {r.fix && <p className="customization-fix">To fix: {r.fix}.</p>}
                  {showSessions && r.sessionIds.length > 0 && (
                    <p className="customization-sessions">
                      {r.sessionIds.map((id, i) => (
                        <Link key={id} to={sessionHref(id, i === 0 ? r.eventId : undefined)} className="mono">
                          {visibleText(shortId(id))}
                        </Link>
                      ))}
                      {r.sessions > r.sessionIds.length && <span className="muted">and {formatCount(r.sessions - r.sessionIds.length)} more</span>}
                    </p>
                  )}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
