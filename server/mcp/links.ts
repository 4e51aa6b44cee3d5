import { DEFAULT_PORT } from '../config';

/** Where a person opens what the agent cites: the dashboard `serve` runs (same --port), on this machine only. */
export interface DashboardLinks {
  session(id: string, eventId?: number | null): string;
}

export function dashboardLinks(port: number = DEFAULT_PORT): DashboardLinks {
  const base = `http://127.0.0.1:${port}`;
  return {
    session: (id, eventId) => `${base}/session/${encodeURIComponent(id)}${eventId ? `?event=${eventId}` : ''}`,
  };
}
