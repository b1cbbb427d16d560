import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { generateJwtSignature, signatureAt, verifySignature } from '../../src/v2-contract/sdk-signature.js';
import { launchBrowser, openPage } from '../support/browser.js';
import { rememberSecret, startTestGateway, type TestGateway } from '../support/gateway.js';
import { listen, type Listening } from '../support/listen.js';

/**
 * The offline meeting SDK in headless Chromium, against a real gateway over its embedded sandbox.
 * The test page lives on another origin (as an integrator's page would) and loads the script from
 * the gateway; signatures come from the gateway's POST /sdk/signature, as a back end would get them.
 */

const EVENTS = ['onUserJoin', 'onUserLeave', 'onUserIsInWaitingRoom', 'onMeetingStatus'];

interface Callback {
  method: string;
  status: boolean;
  errorCode: number;
  errorMessage: string;
  result: any;
}

let gateway: TestGateway;
let site: Listening;
let browser: Browser;

beforeAll(async () => {
  gateway = await startTestGateway();
  const page = `<!doctype html><title>meeting</title>
<script src="${gateway.url}/sandbox/sdk/1.9.1/meeting-sdk.js"></script>
<script>
  window.call = (method, options = {}) => new Promise((resolve) => MeetingSdk[method]({ ...options, success: resolve, error: resolve }));
  ${JSON.stringify(EVENTS)}.forEach((name) => MeetingSdk.inMeetingServiceListener(name, (data) => window.sdkEvent(name, data)));
</script>`;
  site = await listen((request) =>
    new URL(request.url).pathname === '/left'
      ? new Response('<!doctype html><title>left</title><p id="bye">You left the meeting.</p>', {
          headers: { 'content-type': 'text/html' },
        })
      : new Response(page, { headers: { 'content-type': 'text/html' } }),
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await gateway?.close();
});

/** A page with the SDK loaded; its events are collected in Node (they survive the leaveUrl navigation). */
async function sdkPage() {
  const { page, errors } = await openPage(browser);
  const events: Array<{ name: string; data: any }> = [];
  await page.exposeFunction('sdkEvent', (name: string, data: any) => events.push({ name, data }));
  await page.goto(site.url);
  const call = (method: string, options: Record<string, unknown> = {}) =>
    page.evaluate(([m, o]) => (globalThis as any).call(m, o), [method, options] as const) as Promise<Callback>;
  const waitForEvent = async (name: string, match: (data: any) => boolean = () => true) => {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const found = events.find((e) => e.name === name && match(e.data));
      if (found) return found.data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${name} event; saw ${JSON.stringify(events)}`);
  };
  return { page, errors, events, call, waitForEvent };
}

async function signature(meetingNumber: number, role: 0 | 1): Promise<string> {
  const res = await fetch(`${gateway.url}/sdk/signature`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...gateway.credentials, meetingNumber: String(meetingNumber), role }),
  });
  const body = (await res.json()) as { signature: string };
  expect(body.signature).toMatch(/^[A-Za-z0-9_-]+$/);
  return body.signature;
}

const ok = (method: string, result: unknown = null) => ({
  method,
  status: true,
  errorCode: 0,
  errorMessage: 'invoke function success',
  result,
});
const failed = (method: string, errorCode: number) => ({
  method,
  status: false,
  errorCode,
  errorMessage: expect.any(String),
  result: null,
});

async function createMeeting(topic: string): Promise<number> {
  const res = await gateway.v2('POST', '/users/me/meetings', { body: { topic, password: 'secret1' } });
  expect(res.status).toBe(201);
  return res.body.id;
}

function init(call: (m: string, o?: Record<string, unknown>) => Promise<Callback>) {
  return call('init', { leaveUrl: `${site.url}/left`, isSupportAV: true });
}

/** A signature as SDKs before v5 made it: the key as `sdkKey` alone, no `appKey`; every other claim as today's. */
function jwtWithoutAppKey(sdkKey: string, secret: string, meetingNumber: number, role: 0 | 1): string {
  const iat = Math.floor(Date.now() / 1000) - 30;
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sdkKey, mn: meetingNumber, role, iat, exp: iat + 7200, tokenExp: iat + 7200 })}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('the offline meeting SDK in Chromium', () => {
  it('host and attendee: join, list, mute, rename, expel, end; the past meeting reports it', async () => {
    const id = await createMeeting('Browser SDK meeting');
    const apiKey = gateway.credentials.api_key;
    const host = await sdkPage();

    expect(await host.page.evaluate(() => (globalThis as any).MeetingSdk.getWebSDKVersion())).toEqual(['1.9.1', expect.any(String), 6331]);
    expect(await host.page.evaluate(() => (globalThis as any).MeetingSdk.checkSystemRequirements({ print: false }))).toMatchObject({
      browserName: 'Chrome',
      features: expect.arrayContaining(['computerAudio', 'chat']),
    });
    // Nothing works before init (2).
    expect(
      await host.call('join', { meetingNumber: id, userName: 'Hana Host', passWord: 'secret1', apiKey, signature: await signature(id, 1) }),
    ).toEqual(failed('join', 2));
    await host.page.evaluate(() => (globalThis as any).MeetingSdk.prepareJssdk());
    expect(await host.page.locator('#zmmtg-root').count()).toBe(1);
    expect(await init(host.call)).toEqual(ok('init'));

    expect(
      await host.call('join', { meetingNumber: id, userName: 'Hana Host', passWord: 'secret1', apiKey, signature: await signature(id, 1) }),
    ).toEqual(ok('join', { status: 'in', role: 1 }));
    expect(host.events.filter((e) => e.name === 'onMeetingStatus').map((e) => e.data.status)).toEqual([1, 2]);
    await host.page.locator('.meeting-topic', { hasText: 'Browser SDK meeting' }).waitFor();
    expect(await host.page.locator('.meeting-number').textContent()).toBe(String(id));
    // The header toggle is honoured.
    await host.page.evaluate(() => (globalThis as any).MeetingSdk.showMeetingHeader({ show: false }));
    expect(await host.page.locator('.meeting-header').count()).toBe(0);
    await host.page.evaluate(() => (globalThis as any).MeetingSdk.showMeetingHeader({ show: true }));

    const guest = await sdkPage();
    expect(await init(guest.call)).toEqual(ok('init'));
    const guestJoin = {
      meetingNumber: id,
      userName: 'Gil Guest',
      userEmail: 'gil@example.com',
      passWord: 'secret1',
      apiKey,
      signature: await signature(id, 0),
    };
    expect(await guest.call('join', { ...guestJoin, passWord: 'nope' })).toEqual(failed('join', 3004));
    expect(await guest.page.locator('[data-error-code="3004"]').count()).toBe(1);
    const plain = Buffer.from(guestJoin.signature, 'base64url').toString();
    const tampered = Buffer.from(plain.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))).toString('base64url');
    expect(await guest.call('join', { ...guestJoin, signature: tampered })).toEqual(failed('join', 3712));
    const expired = signatureAt(
      { apiKey, apiSecret: gateway.credentials.api_secret, meetingNumber: String(id), role: 0 },
      Date.now() - 3 * 3_600_000,
    );
    expect(await guest.call('join', { ...guestJoin, signature: expired })).toEqual(failed('join', 3705));
    expect(await guest.call('join', guestJoin)).toEqual(ok('join', { status: 'in', role: 0 }));

    // The host hears the join, lists attendees (index 0 is the current user) and acts on the guest.
    const joined = await host.waitForEvent('onUserJoin', (u) => u.userName === 'Gil Guest');
    const list = await host.call('getAttendeeslist');
    expect(list).toEqual(
      ok('getAttendeeslist', {
        attendeesList: [
          expect.objectContaining({ userName: 'Hana Host', isHost: true }),
          expect.objectContaining({ userName: 'Gil Guest', isHost: false }),
        ],
      }),
    );
    const userId = joined.userId;
    expect((await guest.call('getCurrentUser')).result.currentUser).toMatchObject({ userId, userName: 'Gil Guest', isHost: false });
    expect(await guest.call('expel', { userId: list.result.attendeesList[0].userId })).toEqual(failed('expel', 3003));
    expect(await host.call('mute', { userId, mute: 'yes' })).toEqual(failed('mute', 4003));
    expect(await host.call('mute', { userId, mute: true })).toEqual(ok('mute', { userId, mute: true }));
    await guest.page.locator(`li[data-user-id="${userId}"][data-muted="true"]`).waitFor();
    expect(await host.call('rename', { userId, oldName: 'Gil Guest', newName: 'Gil G.' })).toEqual(
      ok('rename', { userId, oldName: 'Gil Guest', newName: 'Gil G.' }),
    );
    await guest.page.locator(`li[data-user-id="${userId}"] .name`, { hasText: 'Gil G.' }).waitFor();
    expect(await host.call('expel', { userId })).toEqual(ok('expel', { userId }));
    await host.waitForEvent('onUserLeave', (u) => u.userId === userId);
    await guest.waitForEvent('onMeetingStatus', (d) => d.status === 3);
    await guest.page.locator('[data-error-code="3009"]').waitFor();
    expect(await guest.call('join', guestJoin)).toEqual(failed('join', 3009));

    const info = await host.call('getCurrentMeetingInfo');
    expect(info.result).toMatchObject({ meetingNumber: id, meetingTopic: 'Browser SDK meeting', uuid: expect.any(String) });
    expect(await host.call('endMeeting')).toEqual(ok('endMeeting', { uuid: info.result.uuid }));
    await host.waitForEvent('onMeetingStatus', (d) => d.status === 3);
    await host.page.waitForURL(`${site.url}/left`);

    const uuid = encodeURIComponent(encodeURIComponent(info.result.uuid));
    const past = await gateway.v2('GET', `/past_meetings/${uuid}/participants`);
    expect(past.status).toBe(200);
    expect(past.body.participants.map((p: any) => p.name)).toEqual(['Hana Host', 'Gil G.']);
    // And through the v1 gateway: the host's user report nests the meeting's participants.
    const today = new Date().toISOString().slice(0, 10);
    const report = await gateway.v1('/report/getuserreport', { user_id: gateway.sandbox.master.ownerId, from: today, to: today });
    const row = report.meetings.find((m: any) => m.number === id);
    expect(row.topic).toBe('Browser SDK meeting');
    expect(row.participants.map((p: any) => p.name)).toEqual(['Hana Host', 'Gil G.']);

    expect(host.errors).toEqual([]);
    expect(guest.errors.filter((e) => !/status of 40\d/.test(e))).toEqual([]);
  });

  it('a webinar attendee without an email gets 3005', async () => {
    const res = await gateway.v2('POST', '/users/me/webinars', { body: { topic: 'Browser SDK webinar', password: 'secret1' } });
    const id = res.body.id;
    const attendee = await sdkPage();
    await init(attendee.call);
    const answer = await attendee.call('join', {
      meetingNumber: id,
      userName: 'No Mail',
      passWord: 'secret1',
      apiKey: gateway.credentials.api_key,
      signature: await signature(id, 0),
    });
    expect(answer).toEqual(failed('join', 3005));
  });
  it("joins with today's JWT signature and sdkKey, and a host starts the meeting with its ZAK", async () => {
    const id = await createMeeting('Browser SDK JWT');
    const app = (await gateway.control('POST', '/sdk/apps', {})).body as { sdk_key: string; sdk_secret: string };
    rememberSecret(app.sdk_secret);
    const sign = (role: 0 | 1) => generateJwtSignature({ sdkKey: app.sdk_key, sdkSecret: app.sdk_secret, meetingNumber: String(id), role });
    const zak = (await gateway.v2('GET', '/users/me/token', { query: { type: 'zak' } })).body.token;
    const host = await sdkPage();
    await init(host.call);
    const hostJoin = { meetingNumber: id, userName: 'Jo Host', passWord: 'secret1', sdkKey: app.sdk_key, signature: sign(1), zak };
    // A role 1 signature alone does not start the meeting: today's SDK needs the host's ZAK.
    const { zak: _zak, ...withoutZak } = hostJoin;
    expect(await host.call('join', withoutZak)).toEqual(failed('join', 3713));
    // A JWT naming its key as sdkKey only, without appKey, is refused as today's SDK refuses it.
    const sdkKeyOnly = jwtWithoutAppKey(app.sdk_key, app.sdk_secret, id, 1);
    expect(await host.call('join', { ...hostJoin, signature: sdkKeyOnly })).toEqual(failed('join', 3712));
    expect(gateway.sandbox.state.meetings.get(id)?.live).toBeNull();
    expect(await host.call('join', hostJoin)).toEqual(ok('join', { status: 'in', role: 1 }));
    const guest = await sdkPage();
    await init(guest.call);
    const guestJoin = { meetingNumber: id, userName: 'Jo Guest', passWord: 'secret1', sdkKey: app.sdk_key, signature: sign(0) };
    expect(await guest.call('join', { ...guestJoin, sdkKey: 'another-key' })).toEqual(failed('join', 3704));
    expect(await guest.call('join', guestJoin)).toEqual(ok('join', { status: 'in', role: 0 }));
  });

  it('generateSignature in the page makes what the server verifies, byte for byte the same scheme', async () => {
    const { page } = await sdkPage();
    const { api_key: apiKey, api_secret: apiSecret } = gateway.credentials;
    for (const [meetingNumber, role] of [
      ['123456789', 0],
      ['98765432101', 1],
    ] as const) {
      const signature = await page.evaluate(
        ([k, s, m, r]) => (globalThis as any).MeetingSdk.generateSignature({ apiKey: k, apiSecret: s, meetingNumber: m, role: r }),
        [apiKey, apiSecret, meetingNumber, role] as const,
      );
      expect(verifySignature(signature, { apiKey, apiSecret, meetingNumber, role })).toMatchObject({ ok: true });
    }
    // Unicode secrets are hashed as UTF-8, as the SDK does.
    const unicode = await page.evaluate(() =>
      (globalThis as any).MeetingSdk.generateSignature({ apiKey: 'k', apiSecret: 'sécret✓'.repeat(20), meetingNumber: '42', role: 0 }),
    );
    expect(verifySignature(unicode, { apiKey: 'k', apiSecret: 'sécret✓'.repeat(20), meetingNumber: '42', role: 0 })).toMatchObject({
      ok: true,
    });
  });

  it('an attendee waits for the host; the host starts with a zak and leaves, which ends the meeting for everyone', async () => {
    const id = await createMeeting('Waiting meeting');
    const apiKey = gateway.credentials.api_key;
    const guest = await sdkPage();
    await init(guest.call);
    const waiting = await guest.call('join', {
      meetingNumber: id,
      userName: 'Early Eve',
      passWord: 'secret1',
      apiKey,
      signature: await signature(id, 0),
    });
    expect(waiting).toEqual(ok('join', { status: 'waiting', role: 0 }));
    expect(await guest.waitForEvent('onUserIsInWaitingRoom')).toMatchObject({ userName: 'Early Eve', self: true });
    await guest.page.locator('.waiting-room').waitFor();

    // The host's zak, as v2 (and v1's /user/get) hand it out.
    const zak = (await gateway.v2('GET', '/users/me/token', { query: { type: 'zak' } })).body.token;
    const host = await sdkPage();
    await init(host.call);
    const hostJoin = { meetingNumber: id, userName: 'Hana Host', passWord: 'secret1', apiKey, signature: await signature(id, 1) };
    expect(await host.call('join', { ...hostJoin, zak: 'someone-elses' })).toEqual(failed('join', 3709));
    expect(await host.call('join', { ...hostJoin, zak })).toEqual(ok('join', { status: 'in', role: 1 }));
    await guest.waitForEvent('onMeetingStatus', (d) => d.status === 2);
    expect((await host.call('getAttendeeslist')).result.attendeesList.map((a: any) => a.userName)).toEqual(['Hana Host', 'Early Eve']);

    // Hold and admit: the host hears who is in the waiting room.
    const eve = (await guest.call('getCurrentUser')).result.currentUser.userId;
    expect(await host.call('putOnHold', { userId: eve, hold: true })).toEqual(ok('putOnHold', { userId: eve, hold: true }));
    expect(await host.waitForEvent('onUserIsInWaitingRoom', (u) => u.userName === 'Early Eve')).toMatchObject({ userId: eve });
    expect(await host.call('putOnHold', { userId: eve, hold: false })).toEqual(ok('putOnHold', { userId: eve, hold: false }));
    await host.page.locator('.attendees li .name', { hasText: 'Early Eve' }).waitFor();

    expect(await host.call('leaveMeeting')).toEqual(ok('leaveMeeting', { ended: true }));
    await host.page.waitForURL(`${site.url}/left`);
    await guest.waitForEvent('onMeetingStatus', (d) => d.status === 3);
    await guest.page.waitForURL(`${site.url}/left`);
    expect(gateway.sandbox.state.meetings.get(id)!.live).toBeNull();
  });
  it('host tools and toggles: muteAll, record, lock, invitations, reRender, show* and init options', async () => {
    const id = await createMeeting('Tools meeting');
    const apiKey = gateway.credentials.api_key;
    const host = await sdkPage();
    expect(await host.call('init', {})).toEqual(failed('init', 4003)); // leaveUrl is required
    expect(await host.call('init', { leaveUrl: `${site.url}/left`, disableInvite: true, meetingInfo: ['topic'] })).toEqual(ok('init'));
    expect(await host.call('callOut', { phoneNumber: '+4930123456' })).toEqual(failed('callOut', 1)); // not in a meeting yet
    await host.call('join', { meetingNumber: id, userName: 'Hana Host', passWord: 'secret1', apiKey, signature: await signature(id, 1) });
    // meetingInfo: only the topic is shown in the header.
    await host.page.locator('.meeting-topic', { hasText: 'Tools meeting' }).waitFor();
    expect(await host.page.locator('.meeting-number').count()).toBe(0);

    const guest = await sdkPage();
    await init(guest.call);
    await guest.call('join', { meetingNumber: id, userName: 'Gil Guest', passWord: 'secret1', apiKey, signature: await signature(id, 0) });
    const gil = (await guest.call('getCurrentUser')).result.currentUser.userId;
    expect(await guest.call('muteAll', { muteAll: true })).toEqual(failed('muteAll', 3003));
    expect(await host.call('muteAll', { muteAll: true })).toEqual(ok('muteAll', { muteAll: true }));
    await guest.page.locator(`li[data-user-id="${gil}"][data-muted="true"]`).waitFor();
    expect(await guest.call('mute', { userId: gil, mute: false })).toEqual(ok('mute', { userId: gil, mute: false })); // one's own audio

    expect(await guest.call('record', { record: true })).toEqual(failed('record', 3003));
    expect(await host.call('record', { record: true })).toEqual(ok('record', { record: true }));
    expect((await host.call('getCurrentMeetingInfo')).result).toMatchObject({ isRecording: true });
    expect(await host.call('lockMeeting', { lockMeeting: true })).toEqual(ok('lockMeeting', { lockMeeting: true }));
    const late = await sdkPage();
    await init(late.call);
    expect(
      await late.call('join', { meetingNumber: id, userName: 'Late Lou', passWord: 'secret1', apiKey, signature: await signature(id, 0) }),
    ).toEqual(failed('join', 1));

    expect(await host.call('callOut', { phoneNumber: 'not a number' })).toEqual(failed('callOut', 4003));
    expect(await host.call('callOut', { phoneNumber: '+4930123456' })).toEqual(ok('callOut', { phoneNumber: '+4930123456' }));
    expect(await host.call('inviteByPhone', { phoneNumber: '+4930123456', userName: 'Pat' })).toEqual(failed('inviteByPhone', 1)); // disableInvite
    expect(await host.call('inviteCRCDevice', { ip: '10.0.0.9', type: 1 })).toEqual(ok('inviteCRCDevice', { ip: '10.0.0.9', type: 1 }));
    expect(await host.call('reRender', { lang: 'xx-XX' })).toEqual(failed('reRender', 4003));
    expect(await host.call('reRender', { lang: 'de-DE' })).toEqual(ok('reRender', { lang: 'de-DE' }));
    expect(await host.page.locator('#zmmtg-root').getAttribute('lang')).toBe('de-DE');

    // Toggles: the record button goes and comes back; invite stays off (disableInvite).
    expect(await host.page.locator('[data-function="record"]').count()).toBe(1);
    expect(await host.page.locator('[data-function="invite"]').count()).toBe(0);
    await host.page.evaluate(() => (globalThis as any).MeetingSdk.showRecordFunction({ show: false }));
    expect(await host.page.locator('[data-function="record"]').count()).toBe(0);
    await host.page.evaluate(() => (globalThis as any).MeetingSdk.showRecordFunction({ show: true }));
    expect(await host.page.locator('[data-function="record"]').count()).toBe(1);

    const uuid = (await host.call('getCurrentMeetingInfo')).result.uuid;
    await host.call('endMeeting');
    await guest.waitForEvent('onMeetingStatus', (d) => d.status === 3);
    // The host recorded, so the ended instance has its cloud recording.
    expect(gateway.sandbox.state.instancesByUuid.get(uuid)!.instance.recording_files.length).toBeGreaterThan(0);
  });
});
