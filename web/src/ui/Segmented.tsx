import type { SessionSource } from '../../../shared/api';
import { useId } from 'react';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  title?: string;
}

/**
 * A labelled group of toggle buttons, one pressed: the window, grouping and metric pickers. The group is named by
 * its label, or by `groupLabel` when the visible label is too short to say what the buttons choose.
 */
export function Segmented<T extends string>({
  label,
  groupLabel,
  value,
  options,
  onChange,
}: {
  label: string;
  groupLabel?: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (v: T) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <span className="field-label" id={id}>
        {label}
      </span>
      <div className="segmented" role="group" {...(groupLabel ? { 'aria-label': groupLabel } : { 'aria-labelledby': id })}>
        {options.map((o) => (
          <button key={o.value} type="button" className="segmented-btn" aria-pressed={value === o.value} title={o.title} onClick={() => onChange(o.value)}>
            {o.label}
          </button>
        ))}
      </div>
    </div>
  );
}

export const WINDOW_OPTIONS = [
  { value: '24h', label: '24h', title: 'Last 24 hours' },
  { value: '7d', label: '7d', title: 'Last 7 days' },
  { value: '30d', label: '30d', title: 'Last 30 days' },
  { value: '90d', label: '90d', title: 'Last 90 days' },
  { value: 'all', label: 'All', title: 'All time' },
] as const;

/** The source filter's choices; 'all' stands for no filter (the URL's absent `source`). The sessions list, triage and search use them. */
export const SOURCE_OPTIONS = [
  { value: 'all', label: 'All', title: 'VS Code and Copilot CLI sessions' },
  { value: 'vscode', label: 'VS Code', title: 'VS Code chat sessions only' },
  { value: 'cli', label: 'CLI', title: 'Copilot CLI sessions only' },
] as const;
export type SourceChoice = (typeof SOURCE_OPTIONS)[number]['value'];

/** The source filter of the sessions list and triage pages: both, or one source (the URL's `source`). */
export function SourcePicker({ value, onChange }: { value: SessionSource | undefined; onChange: (s: SessionSource | undefined) => void }) {
  return <Segmented label="Source" value={value ?? 'all'} options={SOURCE_OPTIONS} onChange={(v: SourceChoice) => onChange(v === 'all' ? undefined : v)} />;
}
