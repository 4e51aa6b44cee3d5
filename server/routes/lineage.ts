import { Hono } from 'hono';
import type { AppContext } from '../app-context';

// Owned by the lineage feature; chained into the app by server/app.ts.
export function lineageRoutes(_ctx: AppContext) {
  return new Hono();
}
