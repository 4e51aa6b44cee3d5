import { Hono } from 'hono';
import type { AppContext } from '../app-context';

// Owned by the spans feature; chained into the app by server/app.ts.
export function spanRoutes(_ctx: AppContext) {
  return new Hono();
}
