import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxToken } from '../../scripts/sandbox-token.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { signatureHeaders } from '../support/webhook-receivers.js';
import { head, unlimited } from './hostile-support.js';

/**
 * A cluster (WORKERS=2) answers every path as one process answers it, however the client frames
 * its request: each request below goes to a single gateway process and to a cluster started alike,
 * and both answers must be the same. The workers forward the sandbox's prefixes (/v2, /sandbox,
 * /oauth, /rec) and /webhooks to their primary, as the route table lists them; a body sent only once the server says `100 Continue` (curl does so by itself for
 * bodies over 1 KiB before 7.69.0, over 1 MiB since) and a route no part has are where that
 * forward once broke.
 */
const KEY = 'clusterforwardkey00000';
const SECRET = 'clusterforwardsecret0000000000000';
const TOKEN = 'cluster-forward-webhook-token';

function settings(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-cluster-forward-'));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: KEY, url: 'http://127.0.0.1:9/hook' }]));
  return {
    ...unlimited({ key: KEY, secret: SECRET }),
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V1_WEBHOOKS_ANY_PORT: '1',
    V2_WEBHOOK_SECRET_TOKEN: TOKEN,
  };
}

let single: GatewayProcess;
let cluster: GatewayProcess;
/** Each process's sandbox issues its own tokens (both have the same fixed pair). */
const v2Tokens = new Map<GatewayProcess, string>();
beforeAll(async () => {
  [single, cluster] = await Promise.all([
    startGatewayProcess(settings()),
    startGatewayProcess({ ...settings(), WORKERS: '2' }, { startTimeoutMs: 60_000 }),
  ]);
  for (const gateway of [single, cluster]) v2Tokens.set(gateway, await sandboxToken(gateway.url, KEY, SECRET));
}, 90_000);
afterAll(async () => {
  await single?.kill();
  await cluster?.kill();
});

const portOf = (gateway: GatewayProcess) => Number(new URL(gateway.url).port);

interface ContinuedAnswer {
  /** Whether the server said `100 Continue` before the client sent a byte of its body. */
  continued: boolean;
  status: number;
  body: unknown;
}

/**
 * A client that declares its body with `Expect: 100-continue` and sends it only once told to go
 * on, as curl does; then reads the final answer to the connection's close (it asks for one).
 */
function sendExpectingContinue(port: number, requestHead: string, body: string): Promise<ContinuedAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    let continued = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; the server sent: ${JSON.stringify(reply)}`));
    }, 30_000);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (continued || !reply.startsWith(CONTINUE)) return;
      continued = true;
      reply = reply.slice(CONTINUE.length);
      socket.write(body);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ continued, ...finalAnswer(reply) });
    });
    socket.write(requestHead);
  });
}

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/** A whole answer's status and JSON body, its body framed by Content-Length or chunked. */
function finalAnswer(reply: string): { status: number; body: unknown } {
  const headEnd = reply.indexOf('\r\n\r\n');
  const headText = reply.slice(0, headEnd);
  let rest = reply.slice(headEnd + 4);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(headText)) {
    let text = '';
    for (let size = parseInt(rest, 16); size > 0; size = parseInt(rest, 16)) {
      const start = rest.indexOf('\r\n') + 2;
      text += rest.slice(start, start + size);
      rest = rest.slice(start + size + 2);
    }
    rest = text;
  }
  return { status: Number(headText.split(' ')[1]), body: JSON.parse(Buffer.from(rest, 'latin1').toString('utf8')) as unknown };
}

/** Whitespace after a JSON value (still the same JSON) that takes a body past 1 KiB, where curl before 7.69.0 starts to send `Expect: 100-continue`. */
const PADDING = ' '.repeat(2_048);

let events = 0;
/**
 * An event of its own each time: the intake refuses a signature it has taken, and two events of
 * one body signed in the same second carry one signature.
 */
const webhookEvent = () =>
  JSON.stringify({
    event: 'meeting.started',
    event_ts: 1_700_000_000_000 + ++events,
    payload: { account_id: 'acc', object: { id: 81_234_567, uuid: 'uuid==', host_id: 'host' } },
  }) + PADDING;

const newUser = (email: string) => JSON.stringify({ action: 'create', user_info: { email, type: 1 } }) + PADDING;

function continuedRequest(path: string, body: string, fields: Record<string, string>): string {
  return head(`POST ${path} HTTP/1.1`, {
    Host: 'x',
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    Expect: '100-continue',
    Connection: 'close',
    ...fields,
  });
}

describe('a body sent after `Expect: 100-continue`', () => {
  it('reaches the primary through a worker’s forward, on /v2 and /webhooks, answered as one process answers it', async () => {
    const event = webhookEvent();
    const answers = await Promise.all(
      [single, cluster].map(async (gateway) => {
        const port = portOf(gateway);
        // Signed: the intake verifies the body, so a 200 proves the whole body came through the forward.
        const intake = await sendExpectingContinue(port, continuedRequest('/webhooks/v2', event, signatureHeaders(TOKEN, event)), event);
        const user = newUser(`continued-${port}@sandbox.v1gate.local`);
        const created = await sendExpectingContinue(
          port,
          continuedRequest('/v2/users', user, { Authorization: `Bearer ${v2Tokens.get(gateway)}` }),
          user,
        );
        return { intake, created };
      }),
    );
    const [one, two] = answers as [(typeof answers)[0], (typeof answers)[0]];
    // The intake's answer is the same from both, and a signed event's 200: never the forward's 502.
    expect(one.intake.status).toBe(200);
    expect(two.intake).toEqual(one.intake);
    expect(two.intake.continued).toBe(true);
    for (const [created, port] of [
      [one.created, portOf(single)],
      [two.created, portOf(cluster)],
    ] as const) {
      expect(created).toMatchObject({ continued: true, status: 201, body: { email: `continued-${port}@sandbox.v1gate.local` } });
    }
  });

  // curl sends the header by itself for bodies over 1 KiB before 7.69.0 (the libcurl of many PHP hosts) and over 1 MiB since:
  // asked for here, so any curl sends it.
  it('from curl, answered as one process answers it', async () => {
    const run = promisify(execFile);
    const answers: string[] = [];
    for (const gateway of [single, cluster]) {
      const event = webhookEvent();
      const signature = Object.entries(signatureHeaders(TOKEN, event)).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
      const { stdout, stderr } = await run('curl', [
        '-sS',
        '-v',
        '--max-time',
        '30',
        ...signature,
        '-H',
        'Content-Type: application/json',
        '-H',
        'Expect: 100-continue',
        '-w',
        '\n%{http_code}',
        '--data-binary',
        event,
        `${gateway.url}/webhooks/v2`,
      ]);
      // curl's trace shows that it did send the header and got the go-ahead before its body.
      expect(stderr).toMatch(/^> Expect: 100-continue/m);
      expect(stderr).toMatch(/^< HTTP\/1\.1 100 Continue/m);
      answers.push(stdout);
    }
    expect(Number(answers[0]!.split('\n').at(-1))).toBeLessThan(500);
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe('a route no part of the gateway has', () => {
  it('is answered in that route’s own format, by a cluster as by one process', async () => {
    const asked = [
      'GET /webhooks/nothing-here',
      'POST /webhooks/nothing-here',
      'GET /webhooks',
      'GET /v2/nothing-here',
      'POST /v2/nothing-here',
      'GET /sandbox/nothing-here',
      // The sandbox's recording files: once left out of the forward, answered by a worker as no path at all.
      'GET /rec/download/nothing-here',
      'GET /nothing-here',
    ];
    for (const line of asked) {
      const [method, path] = line.split(' ') as [string, string];
      const answers = await Promise.all(
        [single, cluster].map(async (gateway) => {
          const response = await fetch(`${gateway.url}${path}`, { method, signal: AbortSignal.timeout(30_000) });
          return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
        }),
      );
      expect(answers[1], line).toEqual(answers[0]);
      expect(answers[0]!.type, line).toMatch(/^application\/json/);
    }
  });
});
