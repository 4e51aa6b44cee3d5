import { Hono } from 'hono';
import type { AppContext } from '../app-context';

// Owned by the triage feature; chained into the app by server/app.ts.
export function triageRoutes(_ctx: AppContext) {
  return new Hono();
}
