import { useTheme } from './theme';

/** Switches between light and dark; the choice is remembered (see theme.ts for going back to the OS). */
export function ThemeToggle() {
  const { theme, choice, toggle } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const following = choice === 'system' ? ' (following the system)' : '';
  return (
    <button type="button" className="icon-btn theme-toggle" onClick={toggle} aria-label={`Switch to ${next} theme`} title={`${theme} theme${following}: switch to ${next}`}>
      {theme === 'dark' ? <MoonIcon /> : <SunIcon />}
    </button>
  );
}

function SunIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round">
      <circle cx="8" cy="8" r="3" />
      <path d="M8 1v1.5M8 13.5V15M1 8h1.5M13.5 8H15M3 3l1 1M12 12l1 1M3 13l1-1M12 4l1-1" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round">
      <path d="M13.5 9.5A5.5 5.5 0 0 1 6.5 2.5a5.5 5.5 0 1 0 7 7Z" />
    </svg>
  );
}
