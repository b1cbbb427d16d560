import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

/**
 * Granular scopes as the service checks them today: an app made with scopes gets tokens that list
 * them and call only the operations one of them covers (a granular or a classic scope of the
 * operation, per today's documents); any other call is 400 code 4711 naming the operation's
 * granular scopes. An app made without scopes, and the master app, may call everything.
 */

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({});
});
afterAll(() => sb.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A new app of the master account with `scopes` (none: full access), and a token of it. */
async function appWith(
  scopes?: string[],
): Promise<{ scope: string; call: (method: string, path: string, body?: unknown) => Promise<Response> }> {
  const made = await sb.control('POST', `/accounts/${sb.sandbox.master.id}/oauth-apps`, { name: 'scoped', ...(scopes ? { scopes } : {}) });
  expect(made.status).toBe(201);
  expect(made.body.scopes).toEqual(scopes);
  const params = new URLSearchParams({ grant_type: 'account_credentials', account_id: sb.sandbox.master.id });
  const token = await fetch(`${sb.url}/oauth/token?${params.toString()}`, {
    method: 'POST',
    headers: { authorization: basic(made.body.client_id, made.body.client_secret) },
  });
  const answer = (await token.json()) as { access_token: string; scope: string };
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${sb.url}/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${answer.access_token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { scope: answer.scope, call };
}

describe('an OAuth app made with scopes', () => {
  it("lists them in its token's scope, space-separated", async () => {
    const app = await appWith(['meeting:read:meeting:admin', 'user:read:user:admin']);
    expect(app.scope).toBe('meeting:read:meeting:admin user:read:user:admin');
  });

  it('calls what its granular scopes cover and is refused the rest with 4711, before anything is changed', async () => {
    const app = await appWith(['meeting:read:meeting:admin', 'user:read:user:admin']);
    expect((await app.call('GET', '/users/me')).status).toBe(200);
    const refused = await app.call('POST', '/users/me/meetings', { topic: 'not made' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: 4711,
      message: 'Invalid access token, does not contain scopes:[meeting:write:meeting, meeting:write:meeting:admin].',
    });
    const list = await app.call('GET', '/users');
    expect(await list.json()).toEqual({
      code: 4711,
      message: 'Invalid access token, does not contain scopes:[user:read:list_users:admin].',
    });
    // Nothing was made by the refused create.
    const meetings = (await (await appWith()).call('GET', '/users/me/meetings?type=scheduled').then((r) => r.json())) as {
      meetings: { topic: string }[];
    };
    expect(meetings.meetings.map((m) => m.topic)).not.toContain('not made');
  });

  it("calls what one of its classic scopes covers, as the documents' x-macro-scopes say", async () => {
    const app = await appWith(['user:read:admin']);
    expect((await app.call('GET', '/users')).status).toBe(200);
    expect((await app.call('GET', '/users/me/meetings')).status).toBe(400);
  });

  it('takes a literal path before a templated one: /users/email is not /users/{userId}', async () => {
    const app = await appWith(['user:read:email:admin']);
    expect((await app.call('GET', '/users/email?email=nobody@example.com')).status).toBe(200);
    expect((await app.call('GET', '/users/me')).status).toBe(400);
  });

  it('without scopes, calls everything, as the master app does', async () => {
    const app = await appWith();
    expect(app.scope).toBe('account:master');
    expect((await app.call('GET', '/users')).status).toBe(200);
  });

  it('refuses a scope that is not written as one', async () => {
    const made = await sb.control('POST', `/accounts/${sb.sandbox.master.id}/oauth-apps`, { scopes: ['meeting write'] });
    expect(made.status).toBe(400);
  });
});
