/**
 * Seeds a v2 service (the sandbox) with what the benchmark's v1 calls read: one user with
 * settings, one scheduled meeting hosted by that user. Used to capture the fixed upstream's
 * fixtures once (capture-fixtures.ts) and to prepare the sandbox for the realistic run.
 */

import type { Hono } from 'hono';
import type { Sandbox } from '../src/sandbox/app.js';

/** A v2 answer as the seeding reads it: created resources carry an id. */
export type V2Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: { id?: string | number } & Record<string, unknown> }>;

/**
 * Call a sandbox mounted on `root` in process (no socket), as its master account, with an access
 * token of the account's OAuth app taken from its state: today's v2 takes no JWT.
 */
export function inProcessV2(root: Hono, sandbox: Sandbox): V2Call {
  const { clientId, clientSecret } = sandbox.oauthApp;
  return async (method, path, body) => {
    const app = sandbox.state.oauthApps.authenticate(clientId, clientSecret)!;
    const token = sandbox.state.oauthApps.issue(app, sandbox.state.now().getTime()).accessToken;
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await root.fetch(
      new Request(`http://sandbox.local/v2${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as { id?: string | number }) : {} };
  };
}

export interface Seeded {
  userId: string;
  email: string;
  meetingId: string;
}

export const BENCH_EMAIL = 'bench.host@example.com';

export async function seedV2(v2: V2Call): Promise<Seeded> {
  const created = await v2('POST', '/users', {
    action: 'custCreate',
    user_info: { email: BENCH_EMAIL, type: 2, first_name: 'Bench', last_name: 'Host' },
  });
  if (created.status !== 201) throw new Error(`seed: POST /users answered ${created.status} ${JSON.stringify(created.body)}`);
  const userId = String(created.body.id);
  const meeting = await v2('POST', `/users/${encodeURIComponent(userId)}/meetings`, {
    topic: 'Weekly benchmark sync',
    type: 2,
    start_time: '2030-06-03T15:00:00Z',
    duration: 45,
    timezone: 'America/Los_Angeles',
  });
  if (meeting.status !== 201) throw new Error(`seed: POST meetings answered ${meeting.status} ${JSON.stringify(meeting.body)}`);
  return { userId, email: BENCH_EMAIL, meetingId: String(meeting.body.id) };
}
