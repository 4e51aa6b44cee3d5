import { useSyncExternalStore } from 'react';

// Light/dark theme. By default the page follows the OS (`prefers-color-scheme`, through CSS
// `color-scheme` and `light-dark()`); the toggle stores an explicit choice in localStorage and sets
// `data-theme` on <html>, which pins `color-scheme`. There is no inline script (CSP script-src 'self'):
// main.tsx applies the stored choice before React renders.

export type Theme = 'light' | 'dark';
export type ThemeChoice = Theme | 'system';

export const THEME_STORAGE_KEY = 'chronoscope.theme';

export function parseChoice(stored: string | null): ThemeChoice {
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

export function effectiveTheme(choice: ThemeChoice, systemTheme: Theme): Theme {
  return choice === 'system' ? systemTheme : choice;
}

/**
 * The choice after one press of the toggle: the opposite of what is on screen. When that is what the OS
 * asks for anyway, go back to following the OS, so that pressing twice undoes a press completely.
 */
export function toggledChoice(choice: ThemeChoice, systemTheme: Theme): ThemeChoice {
  const target: Theme = effectiveTheme(choice, systemTheme) === 'dark' ? 'light' : 'dark';
  return target === systemTheme ? 'system' : target;
}

function readStored(): ThemeChoice {
  try {
    return parseChoice(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system'; // storage disabled
  }
}

function writeStored(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    /* storage disabled: the choice lasts for this page only */
  }
}

/** Sets or clears `data-theme` on <html>. */
export function applyThemeChoice(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.dataset.theme = choice;
}

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');
const systemTheme = (): Theme => (darkQuery().matches ? 'dark' : 'light');

let choice: ThemeChoice = 'system';
let snapshot: { choice: ThemeChoice; system: Theme; theme: Theme } | null = null;
const listeners = new Set<() => void>();

function notify() {
  snapshot = null;
  listeners.forEach((l) => l());
}

/** Reads the stored choice and applies it; call once before the first render. */
export function initTheme(): void {
  choice = readStored();
  applyThemeChoice(choice);
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  const mq = darkQuery();
  mq.addEventListener('change', notify);
  // another tab pressed the toggle
  const onStorage = (e: StorageEvent) => {
    if (e.key !== THEME_STORAGE_KEY) return;
    choice = parseChoice(e.newValue);
    applyThemeChoice(choice);
    notify();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(fn);
    mq.removeEventListener('change', notify);
    window.removeEventListener('storage', onStorage);
  };
}

function getSnapshot() {
  const system = systemTheme();
  if (!snapshot || snapshot.system !== system) snapshot = { choice, system, theme: effectiveTheme(choice, system) };
  return snapshot;
}

export function useTheme() {
  const s = useSyncExternalStore(subscribe, getSnapshot);
  return {
    ...s,
    toggle() {
      choice = toggledChoice(choice, systemTheme());
      writeStored(choice);
      applyThemeChoice(choice);
      notify();
    },
  };
}
