import { createBrowserRouter } from 'react-router';
import { SessionsPage } from '../features/sessions/SessionsPage';
import { Layout } from './Layout';
import { lazyPage } from './lazy-page';
import { NotFound, RouteError } from './RouteError';

export function createRouter() {
  return createBrowserRouter([
    {
      element: <Layout />,
      children: [
        {
          // Inside the layout, so that a page that throws (or whose chunk cannot be loaded) keeps the top bar.
          errorElement: <RouteError />,
          children: [
            // The first page is in the main chunk; every other page is loaded when first visited.
            { path: '/', element: <SessionsPage /> },
            { path: '/search', element: lazyPage(() => import('../features/search/SearchPage'), 'SearchPage') },
            { path: '/session/:id', element: lazyPage(() => import('../features/session/SessionPage'), 'SessionPage') },
            { path: '/triage', element: lazyPage(() => import('../features/triage/TriagePage'), 'TriagePage') },
            { path: '/lineage', element: lazyPage(() => import('../features/lineage/LineagePage'), 'LineagePage') },
            { path: '/lineage/:id', element: lazyPage(() => import('../features/lineage/LineagePage'), 'LineagePage') },
            { path: '/usage', element: lazyPage(() => import('../features/usage/UsagePage'), 'UsagePage') },
            { path: '/customizations', element: lazyPage(() => import('../features/customizations/CustomizationsPage'), 'CustomizationsPage') },
            { path: '/sql', element: lazyPage(() => import('../features/sql/SqlPage'), 'SqlPage') },
            { path: '/health', element: lazyPage(() => import('./health/HealthPage'), 'HealthPage') },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ]);
}
