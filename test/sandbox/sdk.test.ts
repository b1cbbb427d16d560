import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateJwtSignature, generateSignature, signatureAt } from '../../src/v2-contract/sdk-signature.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { plantSubAccount } from './users-support.js';

/** The offline SDK's routes (/sandbox/sdk/...) without a browser: joins, in-meeting actions, and what v2 then reports. */

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

async function createMeeting(body: Record<string, unknown> = {}): Promise<number> {
  const res = await sb.v2('POST', '/users/me/meetings', { body: { topic: 'SDK meeting', password: 'pw123', ...body } });
  expect(res.status).toBe(201);
  return res.body.id;
}

function sign(meetingNumber: number, role: 0 | 1): string {
  const { apiKey, apiSecret } = sb.sandbox.credentials;
  return generateSignature({ apiKey, apiSecret, meetingNumber: String(meetingNumber), role });
}

async function sdk(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${sb.url}/sandbox/sdk${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

function joinAs(id: number, role: 0 | 1, extra: Record<string, unknown> = {}) {
  return sdk('POST', '/join', {
    meetingNumber: id,
    userName: role === 1 ? 'Host Page' : 'Guest Page',
    passWord: 'pw123',
    apiKey: sb.sandbox.credentials.apiKey,
    signature: sign(id, role),
    ...extra,
  });
}

describe('GET /sandbox/sdk/1.9.1/meeting-sdk.js', () => {
  it('serves the browser script as JavaScript, readable by any origin', async () => {
    const res = await fetch(`${sb.url}/sandbox/sdk/1.9.1/meeting-sdk.js`, { headers: { origin: 'http://example.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toContain('global.MeetingSdk = MeetingSdk');
  });

  it('serves stand-ins for the media scripts prepareJssdk adds, and nothing else', async () => {
    expect((await fetch(`${sb.url}/sandbox/sdk/1.9.1/lib/av/6331_js_media.min.js`)).status).toBe(200);
    expect((await fetch(`${sb.url}/sandbox/sdk/1.9.1/lib/av/..%2Fsecret.js`)).status).toBe(404);
  });
});

describe('POST /sandbox/sdk/join', () => {
  it('a host join starts the meeting as the control API would; an attendee joins the live instance', async () => {
    const id = await createMeeting();
    const host = await joinAs(id, 1);
    expect(host.status).toBe(201);
    expect(host.body).toMatchObject({
      status: 'in',
      role: 1,
      view: { currentUser: { userName: 'Host Page', isHost: true, muted: false } },
    });
    const meeting = sb.sandbox.state.meetings.get(id)!;
    expect(meeting.live?.participants.map((p) => p.name)).toEqual(['Host Page']);
    // v2 sees it live.
    const live = await sb.v2('GET', '/users/me/meetings', { query: { type: 'live', page_size: 300 } });
    expect(live.body.meetings.map((m: any) => m.id)).toContain(id);

    const guest = await joinAs(id, 0, { userEmail: 'guest@example.com' });
    expect(guest.status).toBe(201);
    expect(guest.body.view.attendees.map((a: any) => a.userName)).toEqual(['Guest Page', 'Host Page']);
    expect((await sdk('GET', `/sessions/${host.body.session}`)).body.attendees.map((a: any) => a.userName)).toEqual([
      'Host Page',
      'Guest Page',
    ]);
  });

  it('answers the SDK error codes: parameters, key, signature, meeting, password', async () => {
    const id = await createMeeting();
    const { apiKey, apiSecret } = sb.sandbox.credentials;
    expect((await joinAs(id, 0, { userName: '' })).body.errorCode).toBe(4003);
    expect((await joinAs(id, 0, { apiKey: 'nobody' })).body.errorCode).toBe(3704);
    const good = sign(id, 0);
    const tampered = Buffer.from(
      Buffer.from(good, 'base64url')
        .toString()
        .replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    ).toString('base64url');
    expect((await joinAs(id, 0, { signature: tampered })).body).toEqual({ errorCode: 3712, errorMessage: 'Signature is invalid.' });
    const expired = signatureAt({ apiKey, apiSecret, meetingNumber: String(id), role: 0 }, Date.now() - 3 * 3_600_000);
    expect((await joinAs(id, 0, { signature: expired })).body.errorCode).toBe(3705);
    expect((await joinAs(id, 0, { signature: sign(id + 1, 0) })).body.errorCode).toBe(3706);
    expect((await joinAs(99999999999, 0, { signature: sign(99999999999, 0) })).body.errorCode).toBe(3707);
    expect((await joinAs(id, 1, { passWord: 'wrong' })).body.errorCode).toBe(3004);
    expect(sb.sandbox.state.meetings.get(id)!.instances).toEqual([]);
  });

  it('webinars: attendees need an email (3005), the web may not start one (3609)', async () => {
    const res = await sb.v2('POST', '/users/me/webinars', { body: { topic: 'SDK webinar', password: 'pw123' } });
    const id = res.body.id;
    expect((await joinAs(id, 0)).body.errorCode).toBe(3005);
    expect((await joinAs(id, 1, { userEmail: 'h@example.com' })).body.errorCode).toBe(3609);
  });

  it('before the host: attendees wait (join before host off) and come in when the host starts; 3008 with it on', async () => {
    const id = await createMeeting();
    const early = await joinAs(id, 0);
    expect(early.body.status).toBe('waiting');
    expect(sb.sandbox.state.meetings.get(id)!.live).toBeNull();
    const host = await joinAs(id, 1);
    expect(host.body.view.attendees.map((a: any) => a.userName)).toEqual(['Host Page', 'Guest Page']);
    expect((await sdk('GET', `/sessions/${early.body.session}`)).body.status).toBe('in');

    const jbh = await createMeeting({ settings: { join_before_host: true } });
    expect((await joinAs(jbh, 0)).body.errorCode).toBe(3008);
  });

  it("takes the host's zak (3709 for nobody's, 3711 for another user's)", async () => {
    const id = await createMeeting();
    const zak = (await sb.v2('GET', '/users/me/token', { query: { type: 'zak' } })).body.token;
    expect((await joinAs(id, 1, { zak: 'not-a-zak' })).body.errorCode).toBe(3709);
    const other = await sb.v2('POST', '/users', { body: { action: 'custCreate', user_info: { email: 'zak-other@example.com', type: 1 } } });
    const otherZak = (await sb.v2('GET', `/users/${other.body.id}/token`, { query: { type: 'zak' } })).body.token;
    expect((await joinAs(id, 1, { zak: otherZak })).body.errorCode).toBe(3711);
    expect((await joinAs(id, 1, { zak })).body.status).toBe('in');
  });

  it('joins a meeting of another account only with an on-behalf token whose user is in it, and only as an attendee', async () => {
    const id = await createMeeting();
    const sub = plantSubAccount(sb);
    const app = (await sdk('POST', '/apps', { account_id: sub.id })).body as { sdk_key: string; sdk_secret: string };
    const jwt = (role: 0 | 1) => generateJwtSignature({ sdkKey: app.sdk_key, sdkSecret: app.sdk_secret, meetingNumber: String(id), role });
    const fromOtherAccount = (role: 0 | 1, extra: Record<string, unknown> = {}) =>
      sdk('POST', '/join', {
        meetingNumber: id,
        userName: 'Companion',
        passWord: 'pw123',
        sdkKey: app.sdk_key,
        signature: jwt(role),
        ...extra,
      });
    // The meeting's host (the master's owner) authorizes the app: its on-behalf token.
    const obf = (await sb.v2('GET', '/users/me/token', { query: { type: 'onbehalf' } })).body.token as string;
    const other = await sb.v2('POST', '/users', { body: { action: 'custCreate', user_info: { email: 'obf-other@example.com', type: 1 } } });
    const othersObf = (await sb.v2('GET', `/users/${other.body.id}/token`, { query: { type: 'onbehalf' } })).body.token as string;

    // Before its user is in the meeting the token joins nothing.
    expect((await fromOtherAccount(0, { obfToken: obf })).body.errorCode).toBe(3008);
    expect((await joinAs(id, 1)).body.status).toBe('in');
    // Without a token the meeting is unknown to another account's app; a token of a user not in it, or a made-up one, does not help.
    expect((await fromOtherAccount(0)).body.errorCode).toBe(3707);
    expect((await fromOtherAccount(0, { obfToken: othersObf })).body.errorCode).toBe(3008);
    expect((await fromOtherAccount(0, { obfToken: 'made-up' })).body.errorCode).toBe(3707);
    // On-behalf tokens only join: a role 1 signature with one is still another account's.
    expect((await fromOtherAccount(1, { obfToken: obf })).body.errorCode).toBe(3707);
    const joined = await fromOtherAccount(0, { obfToken: obf });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ role: 0, status: 'in' });
    expect(sb.sandbox.state.meetings.get(id)!.live?.participants.map((p) => p.name)).toContain('Companion');
  });
});

describe('in the meeting', () => {
  it('mute, rename, expel (no way back: 3009), record, end: the past meeting reports it', async () => {
    const id = await createMeeting();
    const host = (await joinAs(id, 1)).body.session;
    const guest = await joinAs(id, 0, { userName: 'Ada', userEmail: 'ada@example.com' });
    const ada = guest.body.view.currentUser.userId;
    const act = (session: string, action: string, body: unknown = {}) => sdk('POST', `/sessions/${session}/${action}`, body);

    expect((await act(guest.body.session, 'mute', { userId: ada - 1024, mute: true })).body.errorCode).toBe(3003);
    expect((await act(host, 'mute', { userId: ada, mute: true })).body.view.attendees[1]).toMatchObject({ userName: 'Ada', muted: true });
    expect((await act(host, 'rename', { userId: ada, oldName: 'Bob', newName: 'Ada L.' })).body.errorCode).toBe(4003);
    expect((await act(host, 'rename', { userId: ada, oldName: 'Ada', newName: 'Ada L.' })).body.result).toEqual({
      userId: ada,
      oldName: 'Ada',
      newName: 'Ada L.',
    });
    expect((await act(host, 'record', { record: true })).status).toBe(200);
    expect((await act(host, 'expel', { userId: ada })).body.view.attendees.map((a: any) => a.userName)).toEqual(['Host Page']);
    expect((await sdk('GET', `/sessions/${guest.body.session}`)).body.status).toBe('removed');
    expect((await act(guest.body.session, 'mute', { userId: ada, mute: false })).body.errorCode).toBe(3009);
    expect((await joinAs(id, 0, { userName: 'Ada', userEmail: 'ada@example.com' })).body.errorCode).toBe(3009);

    expect((await act(host, 'end')).status).toBe(200);
    const meeting = sb.sandbox.state.meetings.get(id)!;
    expect(meeting.live).toBeNull();
    const uuid = meeting.instances[0]!.uuid;
    const past = await sb.v2('GET', `/past_meetings/${encodeURIComponent(encodeURIComponent(uuid))}/participants`);
    expect(past.status).toBe(200);
    expect(past.body.participants.map((p: any) => p.name)).toEqual(['Host Page', 'Ada L.']);
    expect(meeting.instances[0]!.recording_files.length).toBeGreaterThan(0);
  });

  it('a meeting ended through the control API ends the pages too; the host leaving ends it', async () => {
    const id = await createMeeting();
    const host = (await joinAs(id, 1)).body.session;
    expect((await sb.control('POST', `/meetings/${id}/end`)).status).toBe(200);
    expect((await sdk('GET', `/sessions/${host}`)).body.status).toBe('ended');

    const again = (await joinAs(id, 1)).body.session;
    expect((await sdk('POST', `/sessions/${again}/leave`)).body.result).toEqual({ ended: true });
    expect(sb.sandbox.state.meetings.get(id)!.live).toBeNull();
  });

  it('put on hold and let back in; lock keeps new attendees out', async () => {
    const id = await createMeeting();
    const host = (await joinAs(id, 1)).body.session;
    const guest = await joinAs(id, 0);
    const userId = guest.body.view.currentUser.userId;
    const held = await sdk('POST', `/sessions/${host}/putOnHold`, { userId, hold: true });
    expect(held.body.view.waitingRoom).toEqual([{ userId, userName: 'Guest Page' }]);
    expect((await sdk('GET', `/sessions/${guest.body.session}`)).body.status).toBe('waiting');
    await sdk('POST', `/sessions/${host}/putOnHold`, { userId, hold: false });
    expect((await sdk('GET', `/sessions/${guest.body.session}`)).body.status).toBe('in');
    await sdk('POST', `/sessions/${host}/lockMeeting`, { lockMeeting: true });
    expect((await joinAs(id, 0, { userName: 'Late' })).body.errorCode).toBe(1);
  });
});
