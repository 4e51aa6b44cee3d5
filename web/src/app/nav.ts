/** The top-level pages, in the order of the top bar; `key` is the second key of its `g` shortcut. */
export const NAV_ITEMS = [
  { to: '/', label: 'Sessions', key: 's', matches: (p: string) => p === '/' || p.startsWith('/session/') },
  { to: '/search', label: 'Search', key: 'f', matches: (p: string) => p.startsWith('/search') },
  { to: '/triage', label: 'Triage', key: 't', matches: (p: string) => p.startsWith('/triage') },
  { to: '/lineage', label: 'Lineage', key: 'l', matches: (p: string) => p.startsWith('/lineage') },
  { to: '/usage', label: 'Usage', key: 'u', matches: (p: string) => p.startsWith('/usage') },
  { to: '/customizations', label: 'Customizations', key: 'c', matches: (p: string) => p.startsWith('/customizations') },
  { to: '/sql', label: 'SQL', key: 'q', matches: (p: string) => p.startsWith('/sql') },
] as const;

export const HEALTH_SHORTCUT = { to: '/health', key: 'h' } as const;

/**
 * Two-key "go to" shortcuts (g s, g f, …) as a pure step: given the pending key (or null) and the key
 * just pressed, where to go and what is pending now. A pending `g` expires after `windowMs`.
 */
export function goShortcutStep(pending: { key: string; at: number } | null, key: string, at: number, windowMs = 1500): { to: string | null; pending: { key: string; at: number } | null } {
  if (pending && pending.key === 'g' && at - pending.at <= windowMs) {
    const target = [...NAV_ITEMS, HEALTH_SHORTCUT].find((n) => n.key === key);
    if (target) return { to: target.to, pending: null };
  }
  return { to: null, pending: key === 'g' ? { key, at } : null };
}
