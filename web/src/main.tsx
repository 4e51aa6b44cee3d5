// zod is configured (jitless) by /zod-jitless.js, a classic script that runs before this module and its chunks.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initTheme } from './app/theme';
import './app/global.css';
import './ui/ui.css';


// Before the first render, so that a stored theme choice never flashes the other one.
initTheme();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
