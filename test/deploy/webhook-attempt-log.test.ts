import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery } from '../../src/webhooks/attempt.js';

/**
 * A failing webhook receiver shows in the log at every attempt, with a reason an operator can act
 * on (the status it answered, or why no answer came: the connection's own error code), not only
 * at its dead letter, and not as a bare "fetch failed". A real receiver on loopback, and a port
 * nothing listens on.
 */

let receiver: Server;
let receiverUrl: string;
let closedUrl: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // A port that was just free: nothing listens on it once its server is closed.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/hook`;
  await new Promise((resolve) => gone.close(resolve));
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe('a failed webhook attempt', () => {
  it('is a warn line with the status the receiver answered', async () => {
    const { logger, lines } = capturedLogger();
    const result = await attemptDelivery(receiverUrl, 'a=1', undefined, 5_000, { logger, webhook: 'job-1', attempt: 2 });
    expect(result).toEqual({ ok: false, error: 'HTTP 503' });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'webhook attempt failed',
        webhook: 'job-1',
        attempt: 2,
        receiver: new URL(receiverUrl).origin,
        status: 503,
        reason: 'HTTP 503',
      }),
    ]);
  });

  it('is a warn line with the connection error’s code when no answer came', async () => {
    const { logger, lines } = capturedLogger();
    const result = await attemptDelivery(closedUrl, 'a=1', undefined, 5_000, { logger, webhook: 'job-2', attempt: 1 });
    expect(result).toEqual({ ok: false, error: 'fetch failed (ECONNREFUSED)' });
    expect(lines).toEqual([expect.objectContaining({ level: 40, webhook: 'job-2', attempt: 1, reason: 'fetch failed (ECONNREFUSED)' })]);
    expect(lines[0]).not.toHaveProperty('status');
  });

  it('writes nothing when delivered', async () => {
    const ok = createServer((request, response) => {
      request.resume();
      response.writeHead(200).end();
    });
    await new Promise<void>((resolve) => ok.listen(0, '127.0.0.1', resolve));
    const { logger, lines } = capturedLogger();
    const url = `http://127.0.0.1:${(ok.address() as AddressInfo).port}/`;
    expect(await attemptDelivery(url, 'a=1', undefined, 5_000, { logger, webhook: 'job-3', attempt: 1 })).toEqual({ ok: true });
    expect(lines).toEqual([]);
    await new Promise((resolve) => ok.close(resolve));
  });
});
