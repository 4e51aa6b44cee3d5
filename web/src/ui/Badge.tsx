import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'info' | 'success' | 'warn' | 'danger';

/** A small label next to a title: "log deleted", "subagent", "error". */
export function Badge({ tone = 'neutral', title, children }: { tone?: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}
