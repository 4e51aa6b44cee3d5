import { Hono } from 'hono';
import type { AppContext } from '../app-context';

// Owned by the search feature; chained into the app by server/app.ts.
export function searchRoutes(_ctx: AppContext) {
  return new Hono();
}
