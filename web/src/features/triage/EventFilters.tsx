import { useEffect, useId, useState } from 'react';
import type { LatencyRow } from '../../../../shared/api';
import { NO_WORKSPACE_LABEL } from '../../../../shared/group-by-repository';
import { formatCount, formatDateTime, formatDuration } from '../../ui/format';
import { visibleText } from '../../ui/visible-text';
import { CLEARED_EVENT_FILTERS, DEFAULT_MIN, type TriageState } from './url';

const TYPES: { value: string | undefined; label: string }[] = [
  { value: undefined, label: 'Any type' },
  { value: 'llm_request', label: 'Model calls' },
  { value: 'tool_call', label: 'Tool calls' },
  { value: 'subagent', label: 'Subagents' },
  { value: 'hook', label: 'Hooks' },
  { value: 'generic', label: 'Generic' },
  { value: 'discovery', label: 'Discovery' },
];

// <select> values are strings: this one stands for "no filter".
const ANY = '\u0000any';

function Select({ label, value, options, onChange, width }: { label: string; value: string | undefined; options: { value: string | undefined; label: string }[]; onChange: (v: string | undefined) => void; width?: number }) {
  const id = useId();
  const known = value === undefined || options.some((o) => o.value === value);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="select" style={width ? { width } : undefined} value={value ?? ANY} onChange={(e) => onChange(e.target.value === ANY ? undefined : e.target.value)}>
        {!known && <option value={value}>{value === '' ? '(none)' : visibleText(value)}</option>}
        {options.map((o) => (
          <option key={o.value ?? ANY} value={o.value ?? ANY}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A text or number field that applies on Enter or blur, so typing does not refetch per key. */
function CommitInput({ label, value, onCommit, type = 'text', width, placeholder }: { label: string; value: string; onCommit: (v: string) => void; type?: 'text' | 'number'; width: number; placeholder?: string }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        style={{ width }}
        type={type}
        value={draft}
        placeholder={placeholder}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => draft !== value && onCommit(draft)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onCommit(draft);
        }}
      />
    </div>
  );
}

const options = (rows: readonly LatencyRow[] | undefined, any: string) => [
  { value: undefined, label: any },
  ...(rows ?? []).map((r) => ({ value: r.key, label: `${r.key ? visibleText(r.key) : '(none)'} (${formatCount(r.count)})` })),
];

/** The list's filters; every change goes to the URL. */
export function EventFilters({ state, models, tools, onChange }: { state: TriageState; models?: readonly LatencyRow[]; tools?: readonly LatencyRow[]; onChange: (next: Partial<TriageState>) => void }) {
  return (
    <div className="triage-filters" role="group" aria-label="Event filters">
      <Select label="Type" value={state.type} options={TYPES} onChange={(type) => onChange({ type })} width={140} />
      <Select label="Model" value={state.model} options={options(models, 'Any model')} onChange={(model) => onChange({ model, ...(model !== undefined ? { type: 'llm_request' } : {}) })} width={200} />
      <Select label="Tool" value={state.tool} options={options(tools, 'Any tool')} onChange={(tool) => onChange({ tool, ...(tool !== undefined ? { type: 'tool_call' } : {}) })} width={200} />
      <Select
        label="Status"
        value={state.status}
        options={[
          { value: undefined, label: 'Any status' },
          { value: 'error', label: 'Errors' },
          { value: 'ok', label: 'OK' },
        ]}
        onChange={(status) => onChange({ status: status as TriageState['status'] })}
        width={136}
      />
      <CommitInput
        label="Slower than (ms)"
        type="number"
        width={120}
        value={String(state.min)}
        onCommit={(v) => onChange({ min: v.trim() === '' ? -1 : Math.max(-1, Math.trunc(Number(v)) || 0) })}
      />
      <CommitInput label="Text" width={180} value={state.q} placeholder="error text, name…" onCommit={(q) => onChange({ q: q.trim() })} />
      <Select
        label="Sort by"
        value={state.sort}
        options={[
          { value: 'dur', label: 'Duration' },
          { value: 'ttft', label: 'Time to first token' },
          { value: 'ts', label: 'Start (newest)' },
        ]}
        onChange={(sort) => onChange({ sort: (sort ?? 'dur') as TriageState['sort'] })}
        width={170}
      />
    </div>
  );
}

/** The filters set by a click elsewhere (a chart bar, an error group) that have no control: shown as chips. */
export function FilterChips({ state, onChange }: { state: TriageState; onChange: (next: Partial<TriageState>) => void }) {
  const chips: { label: string; clear: Partial<TriageState> }[] = [];
  if (state.max !== undefined) chips.push({ label: `at most ${formatDuration(state.max)}`, clear: { max: undefined } });
  if (state.name !== undefined) chips.push({ label: `name ${visibleText(state.name)}`, clear: { name: undefined } });
  if (state.sig !== undefined) chips.push({ label: `signature “${visibleText(state.sig)}”`, clear: { sig: undefined } });
  if (state.from !== undefined || state.to !== undefined) {
    chips.push({ label: `started ${state.from !== undefined ? formatDateTime(state.from) : '…'} – ${state.to !== undefined ? formatDateTime(state.to) : '…'}`, clear: { from: undefined, to: undefined } });
  }
  if (state.repo !== undefined) chips.push({ label: state.repo ? `repository ${visibleText(state.repo)}` : NO_WORKSPACE_LABEL, clear: { repo: undefined } });
  const changed = chips.length > 0 || state.min !== DEFAULT_MIN || state.type !== undefined || state.model !== undefined || state.tool !== undefined || state.status !== undefined || state.q !== '';
  if (!changed) return null;
  return (
    <div className="triage-chips">
      {chips.map((c) => (
        <button key={c.label} type="button" className="chip" onClick={() => onChange(c.clear)} title="Remove this filter">
          {c.label} <span aria-hidden="true">×</span>
        </button>
      ))}
      <button type="button" className="btn btn-small" onClick={() => onChange(CLEARED_EVENT_FILTERS)}>
        Clear filters
      </button>
    </div>
  );
}
