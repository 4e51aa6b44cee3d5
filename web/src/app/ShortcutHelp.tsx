import { Fragment, useEffect, useRef, useState } from 'react';
import { keyName } from '../ui/keys/registry';
import { useShortcutGroups, useShortcuts, type Binding } from '../ui/keys/useShortcuts';
import { HEALTH_SHORTCUT, NAV_ITEMS } from './nav';
import './shortcut-help.css';

// The `g` sequences are bound by useGoShortcuts from the same NAV_ITEMS; listed here, not bound again.
const GO_TO: Binding[] = [...NAV_ITEMS.map((n) => ({ keys: [`g ${n.key}`], does: `Go to ${n.label}` })), { keys: [`g ${HEALTH_SHORTCUT.key}`], does: 'Go to Health' }];

/** `?` opens a dialog listing every shortcut bound on the page right now (Esc closes it). */
export function ShortcutHelp() {
  const [open, setOpen] = useState(false);
  useShortcuts('Anywhere', [{ keys: ['?'], does: 'Show these shortcuts', run: () => setOpen(true) }, ...GO_TO]);
  const groups = useShortcutGroups();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="shortcut-help" aria-labelledby="shortcut-help-title" onClose={() => setOpen(false)}>
      {open && (
        <>
          <header className="shortcut-help-header">
            <h2 id="shortcut-help-title">Keyboard shortcuts</h2>
            <button type="button" className="btn btn-small" onClick={() => setOpen(false)} autoFocus>
              Close <kbd>Esc</kbd>
            </button>
          </header>
          <div className="shortcut-help-groups">
            {groups.map((g) => (
              <section key={g.title} aria-label={g.title}>
                <h3>{g.title}</h3>
                <dl>
                  {g.shortcuts.map((s) => (
                    <Fragment key={`${s.keys.join()}${s.does}`}>
                      <dt>
                        {s.keys.map((k, i) => (
                          <Fragment key={k}>
                            {i > 0 && <span className="muted"> or </span>}
                            {k.split(' ').map((part, j) => (
                              <Fragment key={j}>
                                {j > 0 && ' '}
                                <kbd>{keyName(part)}</kbd>
                              </Fragment>
                            ))}
                          </Fragment>
                        ))}
                      </dt>
                      <dd>{s.does}</dd>
                    </Fragment>
                  ))}
                </dl>
              </section>
            ))}
          </div>
        </>
      )}
    </dialog>
  );
}
