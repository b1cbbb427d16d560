import { describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createServer, defaultMaxConnections } from './server.js';

const limits = (openFiles: string) => `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            ${openFiles}                 1048576              files
`;

describe('defaultMaxConnections', () => {
  it('is 4,096 where files are plenty', () => {
    expect(defaultMaxConnections(limits('1048576'))).toBe(4_096);
  });

  it('leaves half the open-file limit to everything else where that is lower', () => {
    expect(defaultMaxConnections(limits('1024'))).toBe(512);
  });

  it('is never below 64, and 4,096 where the limit cannot be read', () => {
    expect(defaultMaxConnections(limits('50'))).toBe(64);
    expect(defaultMaxConnections(limits('unlimited'))).toBe(4_096);
    expect(defaultMaxConnections('')).toBe(4_096);
  });
});

describe('the calls in flight', () => {
  it('counts a call from its arrival until its answer has gone, and no request that names no call', async () => {
    const counts = { started: 0, finished: 0 };
    const inFlightWhileAnswering: number[] = [];
    const calls = {
      started: () => void counts.started++,
      finished: () => void counts.finished++,
    };
    const server = createServer(
      () => {
        inFlightWhileAnswering.push(counts.started - counts.finished);
        return new Response('ok');
      },
      { keepAlive: true, headersTimeoutMs: 5_000, requestTimeoutMs: 5_000, maxConnectionsPerAddress: false, calls },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/v1/user/get', '/healthz', '//V1/Meeting/Get', '/v1/', '/sdk/signature']) {
        const answer = await fetch(`${origin}${path}`, { method: 'POST', body: 'x=1' });
        await answer.text();
      }
      // The last answer's 'close' may follow its bytes by a turn or two.
      while (counts.finished < counts.started) await new Promise((resolve) => setImmediate(resolve));
      expect(counts).toEqual({ started: 3, finished: 3 });
      expect(inFlightWhileAnswering).toEqual([1, 0, 1, 0, 1]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
