import { Link, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { useLiveInvalidation } from '../api/useLiveInvalidation';
import { BackfillIndicator } from './health/BackfillIndicator';
import { DemoBanner } from './health/DemoBanner';
import { StatusBanners } from './health/StatusBanners';
import { healthKeys } from './health/health.queries';
import { HealthIndicator } from './health/HealthIndicator';
import { RecoveryBanner } from './health/RecoveryBanner';
import { NAV_ITEMS } from './nav';
import { ShortcutHelp } from './ShortcutHelp';
import { ThemeToggle } from './ThemeToggle';
import { useGoShortcuts } from './useGoShortcuts';

/** The shell: top bar (brand, pages, backfill, health, theme), the demo banner, then the page. */
export function Layout() {
  const { pathname } = useLocation();
  useGoShortcuts();
  useLiveInvalidation(healthKeys.all, { throttleMs: 3000 });
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Chronoscope: sessions">
          <Logo />
          <span>Chronoscope</span>
        </Link>
        <nav className="topnav" aria-label="Main">
          {NAV_ITEMS.map((item) => {
            const active = item.matches(pathname);
            return (
              <Link
                key={item.to}
                to={item.to}
                className={`topnav-link${active ? ' is-active' : ''}`}
                aria-current={pathname === item.to ? 'page' : undefined}
                title={`${item.label} (g ${item.key})`}
              >
                {item.label}
              </Link>
            );
          })}
        </nav>
        <div className="topbar-status">
          <BackfillIndicator />
          <HealthIndicator />
          <ThemeToggle />
        </div>
      </header>
      <StatusBanners />
      <DemoBanner />
      <RecoveryBanner />
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
      <ShortcutHelp />
      <ScrollRestoration />
    </div>
  );
}

function Logo() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" className="brand-logo">
      <circle cx="10" cy="10" r="8.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M10 4.5V10l3.5 2.2" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
