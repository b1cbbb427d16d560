import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, uniqueEmail, V1_TIME, v1Example, v2User } from '../support/v1-answers.js';
import { JPEG_BYTES, PNG_BYTES, v1Multipart, v2Get } from './users-support.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const sandboxUser = (id: string) => gw.sandbox.state.users.get(id);

describe('/user/updatepassword', () => {
  it('sets the password and answers id and updated_at', async () => {
    const { id } = await v2User(gw);
    const answer = await gw.v1('/user/updatepassword', { id, password: 'new-secret-1' });
    expectExampleShape(answer, '/user/updatepassword');
    expect(answer).toEqual({ id, updated_at: expect.stringMatching(V1_TIME) });
    expect(sandboxUser(id)!.password).toBe('new-secret-1');
  });

  it('answers 300 naming password when v2 refuses it, 300 when missing, 1001 for an unknown user', async () => {
    const { id } = await v2User(gw);
    expectV1Error(await gw.v1('/user/updatepassword', { id, password: 'x'.repeat(40) }), 300, /^Invalid parameter: password\./);
    expect(sandboxUser(id)!.password).toBeNull();
    expect(await gw.v1('/user/updatepassword', { id })).toEqual({ error: { code: 300, message: 'password is required.' } });
    expectV1Error(await gw.v1('/user/updatepassword', { id: 'no-such-user', password: 'new-secret-1' }), 1001);
  });
});

describe('/user/uploadpicture', () => {
  it('uploads a jpeg as pic_file and answers id and updated_at', async () => {
    const { id } = await v2User(gw);
    const answer = await v1Multipart(gw, '/user/uploadpicture', { id, pic_file: new File([JPEG_BYTES], 'me.jpg', { type: 'image/jpeg' }) });
    expect(answer).toEqual({ id, updated_at: expect.stringMatching(V1_TIME) });
    expect((await v2Get(gw, `/users/${id}`)).pic_url).toMatch(/\.jpg$/);
    expect((await gw.v1('/user/get', { id })).pic_url).toMatch(/\.jpg$/);
  });

  it('refuses a missing file, a text field, a png and a jpeg-named png, changing nothing', async () => {
    const { id } = await v2User(gw);
    expect(await v1Multipart(gw, '/user/uploadpicture', { id })).toEqual({ error: { code: 300, message: 'pic_file is required.' } });
    expectV1Error(await v1Multipart(gw, '/user/uploadpicture', { id, pic_file: 'me.jpg' }), 300, /^Invalid parameter: pic_file\./);
    const notJpeg = 'Invalid parameter: pic_file. Must be a jpg/jpeg file.';
    expect(await v1Multipart(gw, '/user/uploadpicture', { id, pic_file: new File([PNG_BYTES], 'me.png', { type: 'image/png' }) })).toEqual({
      error: { code: 300, message: notJpeg },
    });
    expect(await v1Multipart(gw, '/user/uploadpicture', { id, pic_file: new File([PNG_BYTES], 'me.jpg', { type: 'image/jpeg' }) })).toEqual(
      { error: { code: 300, message: notJpeg } },
    );
    expect(await v1Multipart(gw, '/user/uploadpicture', { id, pic_file: new File([JPEG_BYTES], 'me.gif') })).toEqual({
      error: { code: 300, message: notJpeg },
    });
    expect((await v2Get(gw, `/users/${id}`)).pic_url).toBe('');
  });

  it('answers 1001 for an unknown user and 102 for a wrong secret', async () => {
    const file = () => new File([JPEG_BYTES], 'me.jpg', { type: 'image/jpeg' });
    expectV1Error(await v1Multipart(gw, '/user/uploadpicture', { id: 'no-such-user', pic_file: file() }), 1001);
    expectV1Error(await v1Multipart(gw, '/user/uploadpicture', { id: 'x', pic_file: file(), api_secret: 'wrong' }), 102);
  });
});

describe('/user/activate and /user/deactivate', () => {
  it('deactivate then activate, answering the time of each', async () => {
    const { id } = await v2User(gw);
    const off = await gw.v1('/user/deactivate', { id });
    expectExampleShape(off, '/user/deactivate');
    expect(off).toEqual({ id, deactivated_at: expect.stringMatching(V1_TIME) });
    expect((await v2Get(gw, `/users/${id}`)).status).toBe('inactive');
    const on = await gw.v1('/user/activate', { id });
    expectExampleShape(on, '/user/activate');
    expect(on).toEqual({ id, activated_at: expect.stringMatching(V1_TIME) });
    expect((await v2Get(gw, `/users/${id}`)).status).toBe('active');
  });

  it('answers 1001 for an unknown user, 300 for a missing id, and refuses to deactivate the owner', async () => {
    for (const path of ['/user/activate', '/user/deactivate']) {
      expectV1Error(await gw.v1(path, { id: 'no-such-user' }), 1001);
      expect(await gw.v1(path, {})).toEqual({ error: { code: 300, message: 'id is required.' } });
    }
    const owner = await v2Get(gw, '/users/me');
    expectV1Error(await gw.v1('/user/deactivate', { id: owner.id }), 300);
    expect((await v2Get(gw, '/users/me')).status).toBe('active');
  });
});

describe('/user/delete', () => {
  it('type 0 (default) takes an existing user out of the account; the person keeps their email', async () => {
    const created = await v2User(gw);
    const accountId = (await v2Get(gw, '/users/me')).account_id;
    const answer = await gw.v1('/user/delete', { id: created.id });
    expectExampleShape(answer, '/user/delete');
    expect(answer).toEqual({ id: created.id, account_id: accountId, deleted_at: expect.stringMatching(V1_TIME) });
    expect((await gw.v2('GET', `/users/${created.id}`)).status).toBe(404);
    expect(await gw.v1('/user/checkemail', { email: created.email })).toEqual({ existed_email: true });
  });

  it('type 1 erases a pending user, so the email can be invited again', async () => {
    const email = uniqueEmail('invite');
    const { id } = await gw.v1('/user/create', { email, type: 1 });
    expect(await gw.v1('/user/delete', { id, type: 1 })).toMatchObject({ id, deleted_at: expect.stringMatching(V1_TIME) });
    expect(await gw.v1('/user/checkemail', { email })).toEqual({ existed_email: false });
  });

  it('without type erases a pending user as type 1 does: integrations delete the users they invited by id alone', async () => {
    const email = uniqueEmail('invite');
    const { id } = await gw.v1('/user/create', { email, type: 1 });
    expect(await gw.v1('/user/delete', { id })).toEqual({
      id,
      account_id: (await v2Get(gw, '/users/me')).account_id,
      deleted_at: expect.stringMatching(V1_TIME),
    });
    expect((await gw.v2('GET', `/users/${id}`)).status).toBe(404);
    expect(await gw.v1('/user/checkemail', { email })).toEqual({ existed_email: false });
  });

  it('answers 1001 when the type does not match the user, or the user is unknown; 300 for a bad type; nothing changes', async () => {
    const active = await v2User(gw);
    const pending = await v2User(gw, {}, 'create');
    expectV1Error(await gw.v1('/user/delete', { id: active.id, type: 1 }), 1001, /not a pending user/);
    expectV1Error(await gw.v1('/user/delete', { id: pending.id, type: 0 }), 1001, /pending user/);
    expectV1Error(await gw.v1('/user/delete', { id: 'no-such-user' }), 1001);
    expectV1Error(await gw.v1('/user/delete', { id: active.id, type: 2 }), 300, /^Invalid parameter: type\./);
    expect(sandboxUser(active.id)!.status).toBe('active');
    expect(sandboxUser(pending.id)!.status).toBe('pending');
    expect((await v2Get(gw, `/users/${active.id}`)).id).toBe(active.id);
  });
});

describe('/user/permanentdelete', () => {
  it('erases a user named by id, answering id, email and deleted_at', async () => {
    const created = await v2User(gw);
    const answer = await gw.v1('/user/permanentdelete', { id: created.id });
    expectExampleShape(answer, '/user/permanentdelete');
    expect(answer).toEqual({ id: created.id, email: created.email, deleted_at: expect.stringMatching(V1_TIME) });
    expect(sandboxUser(created.id)).toBeUndefined();
    expect(await gw.v1('/user/checkemail', { email: created.email })).toEqual({ existed_email: false });
  });

  it('takes an email, and the id wins when both are given', async () => {
    const byEmail = await v2User(gw);
    expect(await gw.v1('/user/permanentdelete', { email: byEmail.email })).toMatchObject({ id: byEmail.id, email: byEmail.email });
    const a = await v2User(gw);
    const b = await v2User(gw);
    expect(await gw.v1('/user/permanentdelete', { id: a.id, email: b.email })).toMatchObject({ id: a.id, email: a.email });
    expect(sandboxUser(a.id)).toBeUndefined();
    expect(sandboxUser(b.id)).toBeDefined();
  });

  it('answers 300 without id or email, 300 for a malformed email, 1001 for an unknown user', async () => {
    expect(await gw.v1('/user/permanentdelete', {})).toEqual({ error: { code: 300, message: 'id or email is required.' } });
    expectV1Error(await gw.v1('/user/permanentdelete', { email: 'nope' }), 300, /^Invalid parameter: email\./);
    expectV1Error(await gw.v1('/user/permanentdelete', { id: 'no-such-user' }), 1001);
    expectV1Error(await gw.v1('/user/permanentdelete', { email: uniqueEmail('nobody') }), 1001);
  });
});

describe('/user/revoketoken', () => {
  it('revokes the SSO token of a user named by id or email', async () => {
    const sso = await v2User(gw, {}, 'ssoCreate');
    expect(sandboxUser(sso.id)!.tokens.sso_token).not.toBeNull();
    const answer = await gw.v1('/user/revoketoken', { email: sso.email });
    expectExampleShape(answer, '/user/revoketoken');
    expect(answer).toEqual({ id: sso.id, email: sso.email, updated_at: expect.stringMatching(V1_TIME) });
    expect(sandboxUser(sso.id)!.tokens.sso_token).toBeNull();
    expect(await gw.v1('/user/revoketoken', { id: sso.id })).toMatchObject({ id: sso.id, email: sso.email });
  });

  it('answers 300 without id or email and 1001 for an unknown user', async () => {
    expect(await gw.v1('/user/revoketoken', {})).toEqual({ error: { code: 300, message: 'id or email is required.' } });
    expectV1Error(await gw.v1('/user/revoketoken', { id: 'no-such-user' }), 1001);
  });
});

describe('assistants and scheduleforhost', () => {
  it('/user/assistant/set adds the assistant, by host id or host_email', async () => {
    const host = await v2User(gw);
    const first = await v2User(gw);
    const second = await v2User(gw);
    const answer = await gw.v1('/user/assistant/set', { id: host.id, assistant_email: first.email });
    expectExampleShape(answer, '/user/assistant/set');
    expect(answer).toEqual({ id: host.id, host_email: host.email, updated_at: expect.stringMatching(V1_TIME) });
    expect(await gw.v1('/user/assistant/set', { host_email: host.email, assistant_email: second.email })).toMatchObject({ id: host.id });
    const { assistants } = await v2Get(gw, `/users/${host.id}/assistants`);
    expect(assistants.map((a: { id: string }) => a.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('/user/scheduleforhost/list names the hosts a user schedules for, with their names', async () => {
    const hostA = await v2User(gw, { first_name: 'Host', last_name: 'A' });
    const hostB = await v2User(gw, { first_name: 'Host', last_name: 'B' });
    const assistant = await v2User(gw);
    await gw.v1('/user/assistant/set', { id: hostA.id, assistant_email: assistant.email });
    await gw.v1('/user/assistant/set', { id: hostB.id, assistant_email: assistant.email });
    const answer = await gw.v1('/user/scheduleforhost/list', { host_email: assistant.email });
    expectExampleShape(answer, '/user/scheduleforhost/list');
    for (const item of answer.users)
      expect(Object.keys(item).sort()).toEqual(Object.keys(v1Example('/user/scheduleforhost/list').users[0]).sort());
    expect(answer.total_records).toBe(2);
    expect(answer.users.sort((x: { last_name: string }, y: { last_name: string }) => x.last_name.localeCompare(y.last_name))).toEqual([
      { id: hostA.id, email: hostA.email, first_name: 'Host', last_name: 'A' },
      { id: hostB.id, email: hostB.email, first_name: 'Host', last_name: 'B' },
    ]);
    expect(await gw.v1('/user/scheduleforhost/list', { id: hostA.id })).toEqual({ total_records: 0, users: [] });
  });

  it('/user/assistant/delete removes every assistant of the host', async () => {
    const host = await v2User(gw);
    const assistant = await v2User(gw);
    await gw.v1('/user/assistant/set', { id: host.id, assistant_email: assistant.email });
    const answer = await gw.v1('/user/assistant/delete', { host_email: host.email });
    expectExampleShape(answer, '/user/assistant/delete');
    expect(answer).toEqual({ id: host.id, host_email: host.email, updated_at: expect.stringMatching(V1_TIME) });
    expect((await v2Get(gw, `/users/${host.id}/assistants`)).assistants).toEqual([]);
  });

  it('answer 300 without id or host_email, 300 without assistant_email, 1001 for unknown users, and change nothing', async () => {
    const host = await v2User(gw);
    for (const path of ['/user/assistant/set', '/user/assistant/delete', '/user/scheduleforhost/list']) {
      expect(await gw.v1(path, { assistant_email: host.email })).toEqual({
        error: { code: 300, message: 'id or host_email is required.' },
      });
      expectV1Error(await gw.v1(path, { id: 'no-such-user', assistant_email: host.email }), 1001);
    }
    expect(await gw.v1('/user/assistant/set', { id: host.id })).toEqual({ error: { code: 300, message: 'assistant_email is required.' } });
    expectV1Error(await gw.v1('/user/assistant/set', { id: host.id, assistant_email: uniqueEmail('nobody') }), 1001);
    expectV1Error(
      await gw.v1('/user/assistant/set', { id: host.id, assistant_email: host.email }),
      300,
      /^Invalid parameter: assistant_email\./,
    );
    expect((await v2Get(gw, `/users/${host.id}/assistants`)).assistants).toEqual([]);
  });
});

describe('every user endpoint', () => {
  /** Valid params for each path (so that only the credentials are wrong). */
  const VALID: Record<string, Record<string, string>> = {
    '/user/create': { email: 'a@example.com', type: '1' },
    '/user/autocreate': { email: 'a@example.com', type: '1', password: 'secret-pass-1' },
    '/user/custcreate': { email: 'a@example.com', type: '1' },
    '/user/ssocreate': { email: 'a@example.com', type: '1' },
    '/user/list': {},
    '/user/pending': {},
    '/user/get': { id: 'x' },
    '/user/getbyemail': { email: 'a@example.com' },
    '/user/update': { id: 'x' },
    '/user/updatepassword': { id: 'x', password: 'secret-pass-1' },
    '/user/activate': { id: 'x' },
    '/user/deactivate': { id: 'x' },
    '/user/delete': { id: 'x' },
    '/user/permanentdelete': { id: 'x' },
    '/user/revoketoken': { id: 'x' },
    '/user/assistant/set': { id: 'x', assistant_email: 'a@example.com' },
    '/user/assistant/delete': { id: 'x' },
    '/user/scheduleforhost/list': { id: 'x' },
    '/user/checkemail': { email: 'a@example.com' },
  };

  it('answers 102 for a wrong secret (all 20, the upload included above)', async () => {
    expect(Object.keys(VALID)).toHaveLength(19);
    for (const [path, params] of Object.entries(VALID)) {
      expectV1Error(await gw.v1(path, { ...params, api_secret: 'wrong' }), 102);
    }
  });

  it('answers /user/checkzpk with the retirement, whatever the secret: it is refused before anything is asked of v2', async () => {
    expectV1Error(await gw.v1('/user/checkzpk', { zpk: 'x', api_secret: 'wrong' }), 300);
  });

  it('answers in any letter case of the path, with a trailing slash', async () => {
    const { id } = await v2User(gw);
    expect(await gw.v1('/User/UpdatePassword/', { id, password: 'secret-pass-2' })).toMatchObject({ id });
  });
});
