import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorText } from '../support/error-text.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { signV2Token } from '../support/sandbox.js';
import { freshSignatureHeaders } from '../support/webhook-receivers.js';
import { drip, firstAnswer, head, type ConnectionEnd } from './hostile-support.js';

/**
 * Slow-drip clients (slowloris) on every way in: a framed body, a chunked one, an HTTP/1.0 body
 * with no length, headers, and a connection that says nothing, on the v1 facade, the SDK signer,
 * the webhook intake and the embedded sandbox, and with WORKERS=2 the worker's forward to the
 * primary. Each is cut once its request's deadline passes (the
 * deadline plus a generous margin for a loaded machine), with the route's own error and a closed
 * connection; none is held open by dripping faster than the idle timeout.
 */
const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;
/** Drips come faster than a body may stall (V1_BODY_TIMEOUT_MS) and than an HTTP/1.0 body's 2 s pause. */
const DRIP_EVERY_MS = 250;
/** What "cut at the deadline" allows on a busy two-core machine. */
const MARGIN_MS = 10_000;
/** How long a test waits before taking a connection as held open (far past every deadline). */
const GIVE_UP_MS = 30_000;
const TOKEN = 'slow-requests-webhook-token';

let gw: TestGateway;
let v2Token: string;

/** The short deadlines under test, and a webhook intake (with a journal in a new folder) to drip bodies to. */
function deadlinesAndIntake(folderPrefix: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: 'http://127.0.0.1:9/hook' }]));
  return {
    V1_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    V1_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    V1_BODY_TIMEOUT_MS: '1500',
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V1_WEBHOOKS_ANY_PORT: '1',
    V2_WEBHOOK_SECRET_TOKEN: TOKEN,
  };
}

beforeAll(async () => {
  gw = await startTestGateway(deadlinesAndIntake('v1gate-slow-'));
  v2Token = await signV2Token(gw.credentials.api_key, gw.credentials.api_secret, 600);
});
afterAll(() => gw.close());

/** Every connection was ended by the server within the request deadline plus the margin. */
function expectAllCut(ends: ConnectionEnd[], deadlineMs: number): void {
  expect(ends.filter((end) => end.closedByServer && end.afterMs < deadlineMs + MARGIN_MS)).toHaveLength(ends.length);
}

const tooSlow = `The request did not arrive in full within ${REQUEST_MS} ms.`;

describe('a body dripped a byte at a time', () => {
  it('50 framed bodies (Content-Length 1000000) are all cut at the request deadline, each with the v1 envelope', async () => {
    const request = head('POST /v1/user/get HTTP/1.1', {
      Host: 'x',
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': 1_000_000,
    });
    const ends = await Promise.all(Array.from({ length: 50 }, () => drip(gw.port, request, 'a', DRIP_EVERY_MS, GIVE_UP_MS)));
    expectAllCut(ends, REQUEST_MS);
    for (const end of ends) expect(firstAnswer(end.reply)).toEqual({ status: 200, body: { error: { code: 300, message: tooSlow } } });
    expectErrorText((firstAnswer(ends[0]!.reply)?.body as { error: unknown }).error, 'body-too-slow', [String(REQUEST_MS)]);
  });

  it('a chunked body is cut at the request deadline', async () => {
    const request = head('POST /v1/user/get HTTP/1.1', { Host: 'x', 'Transfer-Encoding': 'chunked' });
    const ends = await Promise.all(Array.from({ length: 10 }, () => drip(gw.port, request, '1\r\na\r\n', DRIP_EVERY_MS, GIVE_UP_MS)));
    expectAllCut(ends, REQUEST_MS);
    for (const end of ends) expect(firstAnswer(end.reply)?.body).toEqual({ error: { code: 300, message: tooSlow } });
  });

  it('an HTTP/1.0 body sent with no length is cut at the request deadline, counted from the connection', async () => {
    const request = head('POST /v1/user/get HTTP/1.0', { 'Content-Type': 'application/x-www-form-urlencoded' });
    const ends = await Promise.all(Array.from({ length: 10 }, () => drip(gw.port, request, 'a', DRIP_EVERY_MS, GIVE_UP_MS)));
    expectAllCut(ends, REQUEST_MS);
    for (const end of ends) expect(firstAnswer(end.reply)?.body).toEqual({ error: { code: 300, message: tooSlow } });
  });

  it('on the SDK signer, the webhook intake and the sandbox too, each in its own error format', async () => {
    const body = { 'Content-Type': 'application/json', 'Content-Length': 1_000_000, Connection: 'keep-alive' };
    const routes = [
      {
        request: head('POST /sdk/signature HTTP/1.1', { Host: 'x', ...body }),
        answer: { status: 200, body: { error: { code: 300, message: tooSlow } } },
      },
      {
        request: head('POST /webhooks/v2 HTTP/1.1', { Host: 'x', ...freshSignatureHeaders(), ...body }),
        answer: { status: 408, body: { error: tooSlow } },
      },
      {
        request: head('POST /v2/users HTTP/1.1', { Host: 'x', Authorization: `Bearer ${v2Token}`, ...body }),
        answer: { status: 408, body: { code: 300, message: tooSlow } },
      },
      {
        // The control API is a private page: a Host other than a loopback name is refused before its body.
        request: head('POST /sandbox/accounts HTTP/1.1', { Host: 'localhost', ...body }),
        answer: { status: 408, body: { code: 300, message: tooSlow } },
      },
    ];
    const ends = await Promise.all(routes.map(({ request }) => drip(gw.port, request, '{', DRIP_EVERY_MS, GIVE_UP_MS)));
    expectAllCut(ends, REQUEST_MS);
    ends.forEach((end, i) => expect(firstAnswer(end.reply), routes[i]!.request.split('\r\n')[0]).toEqual(routes[i]!.answer));
  });
});

describe('a body dripped to a cluster (WORKERS=2), whose workers forward the sandbox and the intake to the primary', () => {
  let cluster: GatewayProcess;
  beforeAll(async () => {
    cluster = await startGatewayProcess(
      { LOG_LEVEL: 'silent', WORKERS: '2', ...deadlinesAndIntake('v1gate-slow-cluster-') },
      { startTimeoutMs: 60_000 },
    );
  }, 90_000);
  afterAll(() => cluster?.kill());

  it('is cut by the worker’s forward at the request deadline, in the error format of the service behind the path', async () => {
    const port = Number(new URL(cluster.url).port);
    const body = { Host: 'x', 'Content-Type': 'application/json', 'Content-Length': 1_000_000 };
    const routes = [
      { request: head('POST /v2/users HTTP/1.1', body), answer: { status: 408, body: { code: 300, message: tooSlow } } },
      {
        request: head('POST /webhooks/v2 HTTP/1.1', { ...body, ...freshSignatureHeaders() }),
        answer: { status: 408, body: { error: tooSlow } },
      },
      { request: head('POST /v1/user/get HTTP/1.1', body), answer: { status: 200, body: { error: { code: 300, message: tooSlow } } } },
    ];
    const ends = await Promise.all(routes.map(({ request }) => drip(port, request, '{', DRIP_EVERY_MS, GIVE_UP_MS)));
    expectAllCut(ends, REQUEST_MS);
    ends.forEach((end, i) => expect(firstAnswer(end.reply), routes[i]!.request.split('\r\n')[0]).toEqual(routes[i]!.answer));
  });
});

describe('headers dripped a line at a time', () => {
  it('are cut at the headers deadline with a 408 v1 envelope', async () => {
    const ends = await Promise.all(
      Array.from({ length: 20 }, () =>
        drip(gw.port, 'POST /v1/user/get HTTP/1.1\r\nHost: x\r\n', 'X-Slow: a\r\n', DRIP_EVERY_MS, GIVE_UP_MS),
      ),
    );
    // The first request of a connection is looked at for up to 2 s (HTTP/1.0 bodies) before Node's parser takes it.
    expectAllCut(ends, 2_000 + HEADERS_MS);
    for (const end of ends) {
      expect(firstAnswer(end.reply)).toEqual({
        status: 408,
        body: { error: { code: 300, message: `The request headers did not arrive within ${HEADERS_MS} ms.` } },
      });
    }
  });

  it('a connection that sends nothing at all is closed too', async () => {
    const ends = await Promise.all(Array.from({ length: 20 }, () => drip(gw.port, '', '', 60_000, GIVE_UP_MS)));
    expectAllCut(ends, 2_000 + HEADERS_MS);
  });
});

describe('afterwards', () => {
  it('the gateway answers as before', async () => {
    expect(await gw.v1('/user/checkemail', { email: 'owner@sandbox.v1gate.local' })).toEqual({ existed_email: true });
  });
});
