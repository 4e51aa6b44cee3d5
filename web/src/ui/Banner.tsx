import type { ReactNode } from 'react';
import type { Tone } from './Badge';

/** A full-width notice under the top bar (demo corpus, a root that cannot be read). */
export function Banner({ tone = 'info', title, children, actions }: { tone?: Tone; title?: ReactNode; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className={`banner banner-${tone}`} role={tone === 'danger' ? 'alert' : 'status'}>
      <div className="banner-body">
        {title && <strong className="banner-title">{title}</strong>}
        {children}
      </div>
      {actions && <div className="banner-actions">{actions}</div>}
    </div>
  );
}
