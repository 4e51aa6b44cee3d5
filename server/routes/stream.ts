import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { BackfillProgress, StreamIndexed } from '../../shared/api';
import type { AppContext } from '../app-context';
import { ApiError } from '../http/errors';

/** Open streams at most: a tab holds one; a runaway client must not hold the server's sockets. */
export const MAX_STREAMS = 64;

/** Server-Sent Events: `indexed` after each committed batch (with its session ids), `progress` during backfill. */
export function streamRoutes(ctx: AppContext) {
  let open = 0;
  return new Hono().get('/stream', (c) => {
    if (open >= MAX_STREAMS) throw new ApiError(503, 'too_many_streams', `at most ${MAX_STREAMS} live streams at once; close a tab`);
    open++;
    return streamSSE(c, async (stream) => {
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
      open--;
    });
  });
}
