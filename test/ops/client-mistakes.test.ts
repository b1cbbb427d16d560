import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { readJsonLines } from '../support/json-lines.js';

/**
 * A client's mistakes are not the gateway's faults: a missing parameter, a value of the wrong type,
 * a path that names nothing, no credentials or wrong ones each answer a v1 error and write the
 * call's one line, at info, naming the failure's kind. Only a bug of v1gate's is an error (the
 * facade's own test of that: test/ops/logging.test.ts). A gateway over the sandbox, its log file read back.
 */

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  code?: number;
  kind?: string;
  heldBack?: number;
}

const dir = mkdtempSync(join(tmpdir(), 'v1gate-mistakes-'));
const file = join(dir, 'gateway.log');
let gateway: TestGateway;
const lines = () => readJsonLines<Line>(file);

beforeAll(async () => {
  gateway = await startTestGateway({ LOG_FILE: file, LOG_LEVEL: 'info' });
  // The owner's pair proven first: its mistakes are its own key's, never held back.
  expect(await gateway.v1('/user/checkemail', { email: 'owner@sandbox.v1gate.local' })).toEqual({ existed_email: true });
});
afterAll(async () => {
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

const random = () => randomBytes(12).toString('base64url');
const stranger = () => ({ api_key: random(), api_secret: random() });

/** 140 calls, each a client's mistake, with the code v1 answers and the kind its line names. */
const MISTAKES: {
  label: string;
  count: number;
  path: string;
  params: () => Record<string, string>;
  noCredentials?: boolean;
  code: number;
  kind: string;
}[] = [
  { label: 'missing parameter, owner', count: 30, path: '/meeting/create', params: () => ({ topic: 't' }), code: 300, kind: 'v1-error' },
  { label: 'wrong type, owner', count: 30, path: '/user/list', params: () => ({ page_size: 'many' }), code: 300, kind: 'v1-error' },
  { label: 'unknown path, owner', count: 20, path: `/nothing/here`, params: () => ({}), code: 300, kind: 'unknown-path' },
  {
    label: 'no credentials',
    count: 20,
    path: '/user/get',
    params: () => ({ id: 'x' }),
    noCredentials: true,
    code: 101,
    kind: 'missing-credentials',
  },
  { label: 'missing parameter, a stranger', count: 20, path: '/meeting/create', params: stranger, code: 300, kind: 'v1-error' },
  {
    label: 'wrong type, a stranger',
    count: 20,
    path: '/user/list',
    params: () => ({ ...stranger(), page_size: 'many' }),
    code: 300,
    kind: 'v1-error',
  },
];

describe("a client's mistakes", () => {
  it(
    'write no error-level line: each its one call line at info, naming its kind; none held back for a proven owner',
    { timeout: 60_000 },
    async () => {
      const sent: string[] = [];
      for (const mistake of MISTAKES) {
        for (let i = 0; i < mistake.count; i++) {
          const reqId = `mistake-${sent.length}`;
          const fields = { ...(mistake.noCredentials ? {} : gateway.credentials), ...mistake.params() };
          const response = await fetch(`${gateway.url}/v1${mistake.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': reqId },
            body: new URLSearchParams(fields).toString(),
          });
          const answer = { body: (await response.json()) as { error?: { code: number } } };
          expect(answer.body.error?.code, mistake.label).toBe(mistake.code);
          sent.push(reqId);
        }
      }
      // Anonymous calls past their kind's burst are counted in a summary a second later.
      await vi.waitFor(
        () => {
          const all = lines();
          const written = all.filter((l) => l.reqId?.startsWith('mistake-')).length;
          const heldBack = all.filter((l) => l.msg === 'v1 call lines held back').reduce((sum, l) => sum + l.heldBack!, 0);
          expect(written + heldBack).toBe(sent.length);
        },
        { timeout: 30_000, interval: 200 },
      );

      const all = lines();
      expect(all.filter((l) => l.level >= 50)).toEqual([]);
      expect(all.filter((l) => l.msg === 'unexpected error')).toEqual([]);
      const byId = new Map(all.filter((l) => l.reqId?.startsWith('mistake-')).map((l) => [l.reqId!, l]));
      // One line a call, never two.
      expect(all.filter((l) => l.reqId?.startsWith('mistake-'))).toHaveLength(byId.size);
      let at = 0;
      for (const mistake of MISTAKES) {
        const these = sent.slice(at, (at += mistake.count)).map((id) => byId.get(id));
        // The owner's are all written; a stranger's may be held back (counted above).
        if (!mistake.noCredentials && !mistake.label.includes('stranger')) expect(these.every(Boolean), mistake.label).toBe(true);
        for (const line of these.filter(Boolean)) {
          expect(line, mistake.label).toMatchObject({ level: 30, msg: 'v1 call failed', code: mistake.code, kind: mistake.kind });
        }
      }
    },
  );
});
