import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sandboxToken } from '../../scripts/sandbox-token.js';
import { closeWaitOf } from '../support/close-wait.js';
import { recordedFileAt } from '../support/process-recordings.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * Download links whose v2 answer is not the file: the recording deleted (v2 answers 404), or the
 * app's tokens revoked (v2 answers 401, and the link's fetch renews its token once). Each time the
 * gateway stops reading v2's answer; that must never end the process, on one process or in a
 * cluster, and no connection is left open. The owner's calls are answered all the while.
 */

const pair = { key: 'abandon-download-key', secret: 'abandon-download-secret-0123456789' };
const app = { id: 'abandon-download-client', secret: 'abandon-download-client-secret-0123' };
const OPENED = 20;

function envFor(workers: number): Record<string, string> {
  return {
    ...NO_LIMITS,
    ...(workers > 1 ? { WORKERS: String(workers) } : {}),
    SANDBOX_RATE_LIMITS: 'off',
    SANDBOX_API_KEY: pair.key,
    SANDBOX_API_SECRET: pair.secret,
    SANDBOX_OAUTH_CLIENT_ID: app.id,
    SANDBOX_OAUTH_CLIENT_SECRET: app.secret,
    DOWNLOAD_URL_KEY: 'a-download-signing-key-of-32-chars-at-least',
    LOG_LEVEL: 'silent',
  };
}

/** GET of a link on a connection of its own (in a cluster, each lands on the next worker), closed after. */
async function openAlone(origin: string, link: string): Promise<{ status: number; body: string; bytes: number }> {
  const client = new Client(origin, { pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  try {
    const answer = await client.request({ method: 'GET', path: new URL(link).pathname });
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    return { status: answer.statusCode, body: bytes.subarray(0, 2000).toString(), bytes: bytes.length };
  } finally {
    await client.close();
  }
}

async function ownerCall(origin: string): Promise<number> {
  const form = new URLSearchParams({ api_key: pair.key, api_secret: pair.secret });
  const answer = await fetch(`${origin}/v1/user/list`, { method: 'POST', body: form });
  await answer.arrayBuffer();
  return answer.status;
}

for (const workers of [1, 2]) {
  describe(`links whose v2 answer is not the file, ${workers === 1 ? 'on one process' : `on WORKERS=${workers}`}`, () => {
    let gateway: GatewayProcess;
    let exits = 0;

    beforeAll(async () => {
      gateway = await startGatewayProcess(envFor(workers), { startTimeoutMs: 60_000 });
      gateway.onExit(() => exits++);
    }, 90_000);
    afterAll(() => gateway?.kill());

    it(`a deleted recording's link opened ${OPENED} times: each a v1-shaped 404, the process lives, the owner is answered`, async () => {
      const file = await recordedFileAt(gateway.url, pair, 64 * 1024);
      const token = await sandboxToken(gateway.url, pair.key, pair.secret);
      const meetingUuid = await meetingOfLink(gateway.url, token, file.id);
      const deleted = await fetch(
        `${gateway.url}/v2/meetings/${encodeURIComponent(encodeURIComponent(meetingUuid))}/recordings?action=delete`,
        {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(deleted.status).toBe(204);
      for (let time = 0; time < OPENED; time++) {
        const answer = await openAlone(gateway.url, file.link);
        expect(answer.status, answer.body).toBe(404);
        expect(JSON.parse(answer.body)).toEqual({ error: { code: 404, message: expect.stringMatching(/no such recording file/) } });
        expect(await ownerCall(gateway.url)).toBe(200);
      }
      expect(exits).toBe(0);
      expect(gateway.output()).not.toMatch(/RequestAbortedError|worker .* (died|exited)/i);
      // A connection the client just closed may be seen before the server's close: a leaked one stays.
      await vi.waitFor(() => expect(closeWaitOf(gateway.pid)).toBe(0), { timeout: 5_000 });
    }, 60_000);

    it(`a revoked app's link opened ${OPENED} times: each the file, its token renewed, the process lives`, async () => {
      const file = await recordedFileAt(gateway.url, pair, 64 * 1024);
      for (let time = 0; time < OPENED; time++) {
        const revoked = await fetch(`${gateway.url}/sandbox/oauth-apps/${app.id}/revoke-tokens`, { method: 'POST' });
        expect(revoked.status).toBe(200);
        const answer = await openAlone(gateway.url, file.link);
        expect(answer.status, answer.body.slice(0, 200)).toBe(200);
        expect(answer.bytes).toBe(64 * 1024);
        expect(await ownerCall(gateway.url)).toBe(200);
      }
      expect(exits).toBe(0);
      // A connection the client just closed may be seen before the server's close: a leaked one stays.
      await vi.waitFor(() => expect(closeWaitOf(gateway.pid)).toBe(0), { timeout: 5_000 });
    }, 60_000);
  });
}

/** The meeting uuid whose recording holds file `id`, from the account's recording list. */
async function meetingOfLink(origin: string, token: string, fileId: string): Promise<string> {
  const me = (await (await fetch(`${origin}/v2/users/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string };
  const list = (await (
    await fetch(`${origin}/v2/users/${me.id}/recordings?from=2024-05-01&to=2024-06-30`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { meetings: { uuid: string; recording_files: { id: string }[] }[] };
  const meeting = list.meetings.find((m) => m.recording_files.some((f) => f.id === fileId));
  if (!meeting) throw new Error(`no meeting holds recording file ${fileId}`);
  return meeting.uuid;
}
