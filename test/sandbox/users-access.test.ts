import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/sandbox/clock.js';
import { TOKEN_NO_LONGER_SUPPORTED } from '../../src/sandbox/users/tokens.js';
import { schemaProblems } from '../support/openapi.js';
import { signV2Token, startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { createUser, expectFieldError, expectUserNotFound, getUser, postForm } from './users-support.js';

/** Status, password, permissions, tokens and the picture. */

let sb: RunningSandbox;
// Frozen on a whole second near the real time (the test tokens expire by the real clock); tests move it on.
let now = new Date(Math.floor(Date.now() / 1000) * 1000);
const clock: Clock = { now: () => now };
beforeAll(async () => {
  sb = await startSandbox({ clock });
});
afterAll(() => sb.close());

describe('PUT /users/{userId}/status', () => {
  it('deactivates and activates a user', async () => {
    const { id } = await createUser(sb);
    const res = await sb.v2('PUT', `/users/${id}/status`, { body: { action: 'deactivate' } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await getUser(sb, id)).status).toBe('inactive');
    expect((await sb.v2('PUT', `/users/${id}/status`, { body: { action: 'activate' } })).status).toBe(204);
    expect((await getUser(sb, id)).status).toBe('active');
  });

  it('activates a pending user, whose email stays unverified', async () => {
    const { id } = await createUser(sb, { type: 1 }, 'create');
    expect((await sb.v2('PUT', `/users/${id}/status`, { body: { action: 'activate' } })).status).toBe(204);
    expect(await getUser(sb, id)).toMatchObject({ status: 'active', verified: 0 });
  });

  it('refuses to deactivate the account owner', async () => {
    const res = await sb.v2('PUT', '/users/me/status', { body: { action: 'deactivate' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(300);
    expect((await getUser(sb, 'me')).status).toBe('active');
  });

  it('answers 400 for a missing or unknown action, 404 for an unknown user', async () => {
    const { id } = await createUser(sb);
    expectFieldError(await sb.v2('PUT', `/users/${id}/status`, { body: {} }), 'action');
    expectFieldError(await sb.v2('PUT', `/users/${id}/status`, { body: { action: 'suspend' } }), 'action');
    expect((await sb.v2('PUT', `/users/${id}/status`, { rawBody: 'x' })).status).toBe(400);
    expect((await getUser(sb, id)).status).toBe('active');
    expectUserNotFound(await sb.v2('PUT', '/users/nobody/status', { body: { action: 'activate' } }));
  });
});

describe('PUT /users/{userId}/password', () => {
  it('sets a password of 8 to 31 characters', async () => {
    const { id } = await createUser(sb);
    const res = await sb.v2('PUT', `/users/${id}/password`, { body: { password: 'x'.repeat(31) } });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(sb.sandbox.state.users.get(id)!.password).toBe('x'.repeat(31));
  });

  it('answers 400 for a password of 32 characters or more, too short, or missing, and keeps the old one', async () => {
    const { id } = await createUser(sb);
    await sb.v2('PUT', `/users/${id}/password`, { body: { password: 'original1' } });
    for (const body of [{ password: 'x'.repeat(32) }, { password: 'short' }, { password: 12345678 }, {}]) {
      expectFieldError(await sb.v2('PUT', `/users/${id}/password`, { body }), 'password');
    }
    expect(sb.sandbox.state.users.get(id)!.password).toBe('original1');
    expectUserNotFound(await sb.v2('PUT', '/users/nobody/password', { body: { password: 'original1' } }));
  });
});

describe('GET /users/{userId}/permissions', () => {
  it('gives the owner the administrator privileges and a member none', async () => {
    const owner = await sb.v2('GET', '/users/me/permissions');
    expect(owner.status).toBe(200);
    expect(schemaProblems('GET', '/users/{userId}/permissions', 200, owner.body)).toEqual([]);
    expect(owner.body.permissions).toEqual(expect.arrayContaining(['User:Read', 'User:Edit', 'Group:Edit']));
    const { id } = await createUser(sb);
    expect((await sb.v2('GET', `/users/${id}/permissions`)).body).toEqual({ permissions: [] });
    expectUserNotFound(await sb.v2('GET', '/users/nobody/permissions'));
  });
});

describe('GET and DELETE /users/{userId}/token', () => {
  it('answers each token type, and the same token when asked again', async () => {
    const { id } = await createUser(sb);
    const byType: Record<string, string> = {};
    for (const type of ['zpk', 'zak', 'onbehalf']) {
      const res = await sb.v2('GET', `/users/${id}/token`, { query: { type } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.any(String) });
      expect(schemaProblems('GET', '/users/{userId}/token', 200, res.body)).toEqual([]);
      byType[type] = res.body.token;
    }
    expect(new Set(Object.values(byType)).size).toBe(3);
    expect((await sb.v2('GET', `/users/${id}/token`, { query: { type: 'zak' } })).body.token).toBe(byType.zak);
    expect((await sb.v2('GET', `/users/${id}/token`, { query: { type: 'onbehalf' } })).body.token).toBe(byType.onbehalf);
  });

  it("answers type=token, the default, with today's text instead of a token, unless the account is on the allowlist", async () => {
    const { id } = await createUser(sb);
    const gone = { token: TOKEN_NO_LONGER_SUPPORTED };
    expect(gone.token).toBe('Token is no longer supported. Please use ZAK token instead.');
    const asked = await sb.v2('GET', `/users/${id}/token`, { query: { type: 'token' } });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual(gone);
    expect((await sb.v2('GET', `/users/${id}/token`)).body).toEqual(gone);
    // An account on the service's allowlist still gets the user's Zoom token, the same each time.
    sb.sandbox.master.legacyTokenAllowlisted = true;
    try {
      const token = (await sb.v2('GET', `/users/${id}/token`, { query: { type: 'token' } })).body.token;
      expect(token).toBe(sb.sandbox.state.users.get(id)!.tokens.token);
      expect(token).not.toBe(gone.token);
      expect((await sb.v2('GET', `/users/${id}/token`)).body.token).toBe(token);
    } finally {
      delete sb.sandbox.master.legacyTokenAllowlisted;
    }
  });

  it('answers 400 for an unknown type and 404 for an unknown user', async () => {
    expectFieldError(await sb.v2('GET', '/users/me/token', { query: { type: 'jwt' } }), 'type');
    expectUserNotFound(await sb.v2('GET', '/users/nobody/token'));
  });

  it('revokes the SSO token', async () => {
    const { id } = await createUser(sb, {}, 'ssoCreate');
    expect(sb.sandbox.state.users.get(id)!.tokens.sso_token).toEqual(expect.any(String));
    const res = await sb.v2('DELETE', `/users/${id}/token`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(sb.sandbox.state.users.get(id)!.tokens.sso_token).toBeNull();
    expectUserNotFound(await sb.v2('DELETE', '/users/nobody/token'));
  });
});

describe('GET /users/zpk', () => {
  it('answers how long a zpk has left, 0 once expired, and a fresh zpk after expiry', async () => {
    const { id } = await createUser(sb);
    const zpk = (await sb.v2('GET', `/users/${id}/token`, { query: { type: 'zpk' } })).body.token;
    const res = await sb.v2('GET', '/users/zpk', { query: { zpk } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ expire_in: 7200 });
    expect(schemaProblems('GET', '/users/zpk', 200, res.body)).toEqual([]);

    now = new Date(now.getTime() + 13 * 1000);
    expect((await sb.v2('GET', '/users/zpk', { query: { zpk } })).body).toEqual({ expire_in: 7187 });
    // Two hours on, a token of the usual minute would be expired too: sign one that outlives the jump.
    const { apiKey, apiSecret } = sb.sandbox.credentials;
    const token = await signV2Token(apiKey, apiSecret, 3 * 60 * 60);
    now = new Date(now.getTime() + 2 * 60 * 60 * 1000);
    try {
      expect((await sb.v2('GET', '/users/zpk', { query: { zpk }, token })).body).toEqual({ expire_in: 0 });
      const renewed = (await sb.v2('GET', `/users/${id}/token`, { query: { type: 'zpk' }, token })).body.token;
      expect(renewed).not.toBe(zpk);
      expect((await sb.v2('GET', '/users/zpk', { query: { zpk: renewed }, token })).body).toEqual({ expire_in: 7200 });
      expectUserNotFound(await sb.v2('GET', '/users/zpk', { query: { zpk }, token }));
    } finally {
      now = new Date(Math.floor(Date.now() / 1000) * 1000);
    }
  });

  it('answers 404 code 1001 for an unknown zpk and 400 without one', async () => {
    expectUserNotFound(await sb.v2('GET', '/users/zpk', { query: { zpk: 'no-such-zpk' } }));
    expectFieldError(await sb.v2('GET', '/users/zpk'), 'zpk');
  });
});

describe('POST /users/{userId}/picture', () => {
  const jpeg = (size = 64) => {
    const bytes = new Uint8Array(size);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    return bytes;
  };
  const formWith = (bytes: Uint8Array, name = 'me.jpg', field = 'pic_file') => {
    const form = new FormData();
    form.set(field, new Blob([bytes], { type: 'image/jpeg' }), name);
    return form;
  };

  it('stores a jpeg and answers 201 with the picture url under the public url', async () => {
    const { id } = await createUser(sb);
    const res = await postForm(sb, `/users/${id}/picture`, formWith(jpeg()));
    expect(res.status).toBe(201);
    expect(res.body).toBeUndefined();
    expect(schemaProblems('POST', '/users/{userId}/picture', 201, res.body)).toEqual([]);
    const picUrl = (await getUser(sb, id)).pic_url;
    expect(picUrl).toMatch(new RegExp(`^https://sandbox\\.v1gate\\.local/p/${id}/[\\w-]+\\.jpg$`));
    expect(res.headers.get('content-location')).toBe(picUrl);
    // A second upload gets a new url.
    await postForm(sb, `/users/${id}/picture`, formWith(jpeg(), 'again.jpeg'));
    expect((await getUser(sb, id)).pic_url).not.toBe(picUrl);
  });

  it.each([
    ['a png named .jpg', formWith(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))],
    ['a jpeg named .png', formWith(jpeg(), 'me.png')],
    ['an empty file', formWith(new Uint8Array(0))],
    ['a file over 2 MB', formWith(jpeg(2 * 1024 * 1024 + 1))],
    ['a body far over 2 MB (refused before it is read)', formWith(jpeg(3 * 1024 * 1024))],
    ['no pic_file field', formWith(jpeg(), 'me.jpg', 'picture')],
  ])('answers 400 naming pic_file for %s and keeps the old picture', async (_, form) => {
    const { id } = await createUser(sb);
    expectFieldError(await postForm(sb, `/users/${id}/picture`, form), 'pic_file');
    expect((await getUser(sb, id)).pic_url).toBe('');
  });

  it('answers 400 for a body that is not multipart and 404 for an unknown user', async () => {
    expectFieldError(await sb.v2('POST', '/users/me/picture', { body: { pic_file: 'x' } }), 'pic_file');
    expectUserNotFound(await postForm(sb, '/users/nobody/picture', formWith(jpeg())));
  });

  it('accepts exactly 2 MB', async () => {
    const { id } = await createUser(sb);
    expect((await postForm(sb, `/users/${id}/picture`, formWith(jpeg(2 * 1024 * 1024)))).status).toBe(201);
  });
});
