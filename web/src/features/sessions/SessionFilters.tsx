import { useId } from 'react';
import type { RepositorySummary, TimeWindow } from '../../../../shared/api';
import { formatCount, plural } from '../../ui/format';
import { Segmented, WINDOW_OPTIONS } from '../../ui/Segmented';
import { visibleText } from '../../ui/visible-text';
import { NO_WORKSPACE_LABEL } from '../../../../shared/group-by-repository';

// <select> values are strings: these stand for "no filter" and "no repository" (the URL's absent and empty repo).
const ALL = '\u0000all';
const NONE = '\u0000none';

export function RepositorySelect({
  value,
  repositories,
  onChange,
}: {
  value: string | undefined;
  repositories: readonly RepositorySummary[];
  onChange: (repo: string | undefined) => void;
}) {
  const named = repositories.filter((r) => r.name !== null).sort((a, b) => a.name!.localeCompare(b.name!));
  const none = repositories.find((r) => r.name === null);
  const total = repositories.reduce((n, r) => n + r.sessions, 0);
  // a repository from the URL that has no sessions in this window stays selectable
  const missing = value !== undefined && value !== '' && !named.some((r) => r.name === value);
  const selected = value === undefined ? ALL : value === '' ? NONE : value;
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Repository
      </label>
      <select
        id={id}
        className="select"
        value={selected}
        onChange={(e) => onChange(e.target.value === ALL ? undefined : e.target.value === NONE ? '' : e.target.value)}
      >
        {/* the count of repositories, and the sessions separately: each option below counts sessions */}
        <option value={ALL}>{repositories.length > 0 ? `All ${plural(named.length, 'repository', 'repositories')} (${plural(total, 'session')})` : 'All repositories'}</option>
        {missing && <option value={value}>{visibleText(value)} (0)</option>}
        {named.map((r) => (
          <option key={r.name} value={r.name!}>
            {visibleText(r.name!)} ({formatCount(r.sessions)})
          </option>
        ))}
        {(none || value === '') && (
          <option value={NONE}>
            {NO_WORKSPACE_LABEL} ({formatCount(none?.sessions ?? 0)})
          </option>
        )}
      </select>
    </div>
  );
}

export function WindowPicker({ value, onChange }: { value: TimeWindow; onChange: (w: TimeWindow) => void }) {
  return <Segmented label="Last activity" value={value} options={WINDOW_OPTIONS} onChange={onChange} />;
}
