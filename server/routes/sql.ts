import { Hono } from 'hono';
import type { AppContext } from '../app-context';

// Owned by the sql feature; chained into the app by server/app.ts.
export function sqlRoutes(_ctx: AppContext) {
  return new Hono();
}
