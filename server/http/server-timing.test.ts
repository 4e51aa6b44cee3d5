import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptDuration, sinceAccepted, stampConnections } from './server-timing';

describe('Server-Timing of the accept', () => {
  let server: http.Server | null = null;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('times the first request of a connection only, from its accept', async () => {
    const timings: (string | null)[] = [];
    server = http.createServer((req, res) => {
      timings.push(sinceAccepted(req.socket, performance.now()));
      res.end('ok');
    });
    stampConnections(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<void>((resolve, reject) => http.get({ port, host: '127.0.0.1', agent }, (res) => res.resume().on('end', resolve)).on('error', reject));
    await get();
    await get(); // the same kept-alive connection
    agent.destroy();
    expect(timings).toHaveLength(2);
    expect(timings[0]).toMatch(/^accept;dur=\d+\.\d\d$/);
    expect(timings[1]).toBeNull();
  });

  it('says nothing of a socket it did not stamp', () => {
    expect(sinceAccepted(undefined)).toBeNull();
    expect(sinceAccepted({} as never)).toBeNull();
  });

  it('reads the accept back from a header with other metrics', () => {
    expect(acceptDuration('accept;dur=6.25')).toBe(6.25);
    expect(acceptDuration('db;dur=1.5, accept;desc="since the accept";dur=12.00')).toBe(12);
    expect(acceptDuration('db;dur=1.5')).toBeNull();
    expect(acceptDuration(null)).toBeNull();
  });
});
