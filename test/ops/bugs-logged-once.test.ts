import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InboundGate } from '../../src/v1-steps/admit.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { signedHeaders } from '../support/webhook-receivers.js';
import { readJsonLines } from '../support/json-lines.js';

/**
 * A plain Error thrown anywhere in a call is not of the failure family, so it is a bug: each way
 * in answers it in its own format and logs it once, at error level, with its trace. A client's
 * mistake at the same way in is answered and never logged at error level. The plain Error is
 * planted through the gateway's own test seams: the inbound gate (the facade's and the signer's
 * third step), the download links' clock and the webhook intake's clock. A gateway over the
 * sandbox, its log file read back.
 */

interface Line {
  level: number;
  msg: string;
  err?: { message?: string; stack?: string };
}

const SECRET = 'bugs-logged-once-secret-token';
const dir = mkdtempSync(join(tmpdir(), 'v1gate-bugs-'));
const file = join(dir, 'gateway.log');
let gateway: TestGateway;
/** The message of the plain Error the seams throw; undefined: they work as usual. */
let planted: string | undefined;
const plant = () => {
  if (planted !== undefined) throw new Error(planted);
};

const inbound: InboundGate = {
  check: async () => {
    plant();
    return { allowed: true, headers: {} };
  },
};

const lines = () => readJsonLines<Line>(file);

beforeAll(async () => {
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'legacy', url: 'http://127.0.0.1:9/hook' }]));
  gateway = await startTestGateway(
    {
      LOG_FILE: file,
      LOG_LEVEL: 'info',
      V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
      V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
      V2_WEBHOOK_SECRET_TOKEN: SECRET,
      V1_WEBHOOKS_ANY_PORT: '1',
      DOWNLOAD_URL_KEY: 'a-download-signing-key-of-32-chars-at-least',
    },
    {
      inbound,
      downloadClock: () => (plant(), Date.now()),
      webhookClock: () => (plant(), Date.now()),
    },
  );
});
afterAll(async () => {
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

const webhookEvent = () =>
  JSON.stringify({
    event: 'meeting.started',
    event_ts: Date.now(),
    payload: { account_id: 'a', object: { id: 7, uuid: 'u==', host_id: 'h' } },
  });

/** Each way in: a request a planted bug breaks, what it answers then, and a client's mistake there. */
const WAYS_IN: {
  name: string;
  request: () => [string, RequestInit];
  bugAnswer: { status: number; body: unknown };
  mistake: () => [string, RequestInit];
  mistakeStatus: number;
}[] = [
  {
    name: 'the facade (a v1 call)',
    request: () => [`${gateway.url}/v1/user/checkemail`, form({ ...gateway.credentials, email: 'owner@sandbox.v1gate.local' })],
    bugAnswer: { status: 200, body: { error: { code: 503, message: 'Internal gateway error. Nothing is known to have been changed.' } } },
    mistake: () => [`${gateway.url}/v1/meeting/create`, form({ ...gateway.credentials, topic: 't' })],
    mistakeStatus: 200,
  },
  {
    name: 'the signer (/sdk/signature)',
    request: () => [`${gateway.url}/sdk/signature`, form({ ...gateway.credentials, meeting_number: '123456789', role: '0' })],
    bugAnswer: { status: 200, body: { error: { code: 503, message: 'Internal gateway error. Nothing is known to have been changed.' } } },
    mistake: () => [`${gateway.url}/sdk/signature`, form({ ...gateway.credentials, role: '0' })],
    mistakeStatus: 200,
  },
  {
    name: 'the webhook intake',
    request: () => {
      const body = webhookEvent();
      return [`${gateway.url}/webhooks/v2`, { method: 'POST', headers: signedHeaders(SECRET, body), body }];
    },
    bugAnswer: { status: 500, body: { error: 'Internal gateway error.' } },
    mistake: () => {
      const body = webhookEvent();
      return [`${gateway.url}/webhooks/v2`, { method: 'POST', headers: signedHeaders('not-the-secret-token', body), body }];
    },
    mistakeStatus: 401,
  },
  {
    name: 'the downloads',
    request: () => [`${gateway.url}/downloads/some-link`, { method: 'GET' }],
    bugAnswer: { status: 500, body: { error: { code: 503, message: 'Internal gateway error. Nothing is known to have been changed.' } } },
    mistake: () => [`${gateway.url}/downloads/a-link-v1gate-never-made`, { method: 'GET' }],
    mistakeStatus: 403,
  },
];

describe('a bug', () => {
  it.each(WAYS_IN.map((way) => [way.name, way] as const))(
    'in %s is logged once at error level, a mistake there never',
    async (name, way) => {
      const before = lines().length;
      const mistake = await fetch(...way.mistake());
      await mistake.arrayBuffer();
      expect(mistake.status, name).toBe(way.mistakeStatus);

      planted = `a planted bug in ${name}`;
      let answer: Response;
      try {
        answer = await fetch(...way.request());
      } finally {
        planted = undefined;
      }
      expect({ status: answer.status, body: await answer.json() }, name).toEqual(way.bugAnswer);

      const mentions = (all: Line[]) => all.filter((l) => JSON.stringify(l).includes(`a planted bug in ${name}`));
      await vi.waitFor(() => expect(mentions(lines())).not.toEqual([]), { timeout: 10_000, interval: 50 });
      // Whatever else the log writes about the request comes within the flush interval: give it that long.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const written = lines().slice(before);
      const [bug, ...more] = mentions(written);
      expect(more, name).toEqual([]);
      expect(bug).toMatchObject({ level: 50, err: { message: `a planted bug in ${name}` } });
      expect(bug!.err!.stack).toContain('bugs-logged-once.test.ts');
      // The mistake's lines (the call's own, at info for the v1 ways in), and nothing else, at error level.
      expect(written.filter((l) => l.level >= 50)).toEqual([bug]);
    },
  );
});
