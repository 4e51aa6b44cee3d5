import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/App';
import { initTheme } from './app/theme';
import './app/global.css';
import './ui/ui.css';

// zod 4 probes `new Function` once to decide whether to compile validators; under our CSP (no eval) that probe
// is a violation report on every page. Tell it not to try.
z.config({ jitless: true });

// Before the first render, so that a stored theme choice never flashes the other one.
initTheme();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
