// One registry of the shortcuts bound right now: each page's components register what they bind while they
// are mounted, and the `?` overlay lists exactly that, so the help cannot drift from the bindings.

export interface Shortcut {
  /** KeyboardEvent.key values (alternatives), or a sequence written with spaces ("g s") */
  keys: readonly string[];
  does: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: readonly Shortcut[];
}

export interface ShortcutRegistry {
  register(group: ShortcutGroup): () => void;
  groups(): readonly ShortcutGroup[];
  subscribe(listener: () => void): () => void;
}

/** Groups in the order they were registered; groups of the same title merge, keys listed once. */
export function createShortcutRegistry(): ShortcutRegistry {
  const entries = new Map<symbol, ShortcutGroup>();
  const listeners = new Set<() => void>();
  let snapshot: readonly ShortcutGroup[] = [];
  const changed = () => {
    const byTitle = new Map<string, Shortcut[]>();
    for (const g of entries.values()) {
      const list = byTitle.get(g.title) ?? [];
      for (const s of g.shortcuts) if (!list.some((x) => x.does === s.does && x.keys.join() === s.keys.join())) list.push(s);
      byTitle.set(g.title, list);
    }
    snapshot = [...byTitle].map(([title, shortcuts]) => ({ title, shortcuts }));
    for (const l of listeners) l();
  };
  return {
    register(group) {
      const id = Symbol(group.title);
      entries.set(id, group);
      changed();
      return () => {
        entries.delete(id);
        changed();
      };
    },
    groups: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's registry (one page is mounted at a time, so what it holds is the page's shortcuts). */
export const shortcutRegistry = createShortcutRegistry();

const KEY_NAMES: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', ArrowLeft: '←', ArrowRight: '→', Escape: 'Esc', ' ': 'Space' };

/** How a key is written in the overlay. */
export const keyName = (key: string) => KEY_NAMES[key] ?? key;
