import { useEffect, useRef, useSyncExternalStore } from 'react';
import { isTypingTarget } from './list-selection';
import { shortcutRegistry, type Shortcut, type ShortcutGroup } from './registry';

export interface Binding extends Shortcut {
  /** Carries the key out; returns false when it did nothing (the browser keeps the key). Absent: bound elsewhere
   * from the same table (the session tree's `keyAction`, the `g` sequences). */
  run?: (e: KeyboardEvent) => boolean | void;
}

/**
 * Binds `bindings` on the window while mounted (ignored while typing, with Ctrl/⌘/Alt held, or when something
 * else handled the key) and lists them in the `?` overlay under `title`.
 */
export function useShortcuts(title: string, bindings: readonly Binding[], enabled = true): void {
  const ref = useRef(bindings);
  ref.current = bindings;
  const signature = JSON.stringify([title, enabled, bindings.map((b) => [b.keys, b.does])]);
  useEffect(() => {
    if (!enabled) return;
    const group: ShortcutGroup = { title, shortcuts: ref.current.map(({ keys, does }) => ({ keys, does })) };
    return shortcutRegistry.register(group);
  }, [signature]); // eslint-disable-line react-hooks/exhaustive-deps -- the signature is the group
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      // A dialog (the `?` overlay, a menu) has the keys while it is open.
      if (e.target instanceof Element && e.target.closest('dialog')) return;
      const b = ref.current.find((x) => x.run && x.keys.includes(e.key));
      if (b?.run && b.run(e) !== false) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

/** The groups bound right now, for the overlay. */
export function useShortcutGroups(): readonly ShortcutGroup[] {
  return useSyncExternalStore(shortcutRegistry.subscribe, shortcutRegistry.groups);
}
