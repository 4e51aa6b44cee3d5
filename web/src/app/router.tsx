import { createBrowserRouter } from 'react-router';
import { CustomizationsPage } from '../features/customizations/CustomizationsPage';
import { LineagePage } from '../features/lineage/LineagePage';
import { SearchPage } from '../features/search/SearchPage';
import { SessionPage } from '../features/session/SessionPage';
import { SessionsPage } from '../features/sessions/SessionsPage';
import { SqlPage } from '../features/sql/SqlPage';
import { TriagePage } from '../features/triage/TriagePage';
import { UsagePage } from '../features/usage/UsagePage';
import { HealthPage } from './health/HealthPage';
import { Layout } from './Layout';
import { NotFound, RouteError } from './RouteError';

export function createRouter() {
  return createBrowserRouter([
    {
      element: <Layout />,
      children: [
        {
          // Inside the layout, so that a page that throws keeps the top bar and its navigation.
          errorElement: <RouteError />,
          children: [
            { path: '/', element: <SessionsPage /> },
            { path: '/search', element: <SearchPage /> },
            { path: '/session/:id', element: <SessionPage /> },
            { path: '/triage', element: <TriagePage /> },
            { path: '/lineage', element: <LineagePage /> },
            { path: '/lineage/:id', element: <LineagePage /> },
            { path: '/usage', element: <UsagePage /> },
            { path: '/customizations', element: <CustomizationsPage /> },
            { path: '/sql', element: <SqlPage /> },
            { path: '/health', element: <HealthPage /> },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ]);
}
