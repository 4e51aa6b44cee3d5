import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { BackfillProgress, StreamIndexed } from '../../shared/api';
import type { AppContext } from '../app-context';

/** Server-Sent Events: `indexed` after each committed batch (with its session ids), `progress` during backfill. */
export function streamRoutes(ctx: AppContext) {
  return new Hono().get('/stream', (c) =>
    streamSSE(c, async (stream) => {
      const onIndexed = (m: StreamIndexed) => void stream.writeSSE({ event: 'indexed', data: JSON.stringify(m) });
      const onProgress = (p: BackfillProgress) => void stream.writeSSE({ event: 'progress', data: JSON.stringify(p) });
      ctx.bus.on('indexed', onIndexed);
      ctx.bus.on('progress', onProgress);
      await stream.writeSSE({ event: 'progress', data: JSON.stringify(ctx.status.progress) });
      const keepAlive = setInterval(() => void stream.writeSSE({ event: 'ping', data: '{}' }), 25_000);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(keepAlive);
      ctx.bus.off('indexed', onIndexed);
      ctx.bus.off('progress', onProgress);
    }),
  );
}
