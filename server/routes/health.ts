import { Hono } from 'hono';
import type { AppContext } from '../app-context';
import { getHealth } from '../health/health';

export function healthRoutes(ctx: AppContext) {
  return new Hono().get('/health', (c) => c.json(getHealth(ctx), 200));
}
