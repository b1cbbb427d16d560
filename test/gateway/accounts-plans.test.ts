import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectV1Error, expectV1Shape, uniqueEmail, V1_TIME } from '../support/v1-answers.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const CONTACT = {
  first_name: 'Bill',
  last_name: 'Payer',
  phone_number: '+1 555 0100',
  address: '1 Main St',
  apt: 'Suite 2',
  city: 'Springfield',
  country: 'US',
  state: 'IL',
  zip: '62701',
};

const CONTACT_SHAPE = {
  email: 'string',
  first_name: 'string',
  last_name: 'string',
  phone_number: 'string',
  address: 'string',
  apt: 'string',
  city: 'string',
  state: 'string',
  zip: 'string',
  country: 'string',
} as const;

const BASE = { type: 'monthly', hosts: 5 };

async function createSubAccount(): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('sub');
  const res = await gw.v2('POST', '/accounts', { body: { first_name: 'Sub', last_name: 'Owner', email, password: 'secret-pass-1' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, email };
}

/** A sub account with a paid base plan, subscribed through v2. */
async function paidSubAccount(plans: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
  const account = await createSubAccount();
  const res = await gw.v2('POST', `/accounts/${account.id}/plans`, {
    body: { contact: { ...CONTACT, email: account.email }, plan_base: BASE, ...plans },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return account;
}

const v2Plans = async (id: string) => (await gw.v2('GET', `/accounts/${id}/plans`)).body;
const v2Billing = async (id: string) => (await gw.v2('GET', `/accounts/${id}/billing`)).body;

describe('/ma/account/plan/subscribe', () => {
  it('subscribes the plans from JSON form fields and answers the contact and plan set', async () => {
    const { id, email } = await createSubAccount();
    const answer = await gw.v1('/ma/account/plan/subscribe', {
      account_id: id,
      ...CONTACT,
      plan_base: JSON.stringify(BASE),
      plan_zoom_rooms: JSON.stringify({ type: 'zroom_monthly', hosts: 2 }),
      plan_room_connector: '{"type":"roomconnector_yearly","hosts":"3"}',
      plan_large_meeting: JSON.stringify([
        { type: 'large100_monthly', hosts: 1 },
        { type: 'large500_yearly', hosts: 2 },
      ]),
      plan_webinar: JSON.stringify({ type: 'webinar500_yearly', hosts: 1 }),
      plan_recording: 'cmr_monthly_commitment_500',
      plan_audio: JSON.stringify({
        type: 'tollfree_monthly_commitment_100',
        tollfree_country: 'AT',
        premium_country: 'TW',
        callout: 0,
        ddi_numbers: 66,
      }),
    });
    expectV1Shape(
      answer,
      {
        ...CONTACT_SHAPE,
        plan_base: 'object',
        plan_vendor_rooms: 'object',
        plan_room_connector: 'object',
        plan_large_meeting: 'array',
        plan_webinar: 'array',
        plan_recording: 'string',
        plan_audio: 'object',
      },
      { inOrder: true },
    );
    expect(answer).toEqual({
      email,
      ...{
        first_name: 'Bill',
        last_name: 'Payer',
        phone_number: '+1 555 0100',
        address: '1 Main St',
        apt: 'Suite 2',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'US',
      },
      plan_base: BASE,
      plan_vendor_rooms: { type: 'zroom_monthly', hosts: 2 },
      plan_room_connector: { type: 'roomconnector_yearly', hosts: 3 },
      plan_large_meeting: [
        { type: 'large100_monthly', hosts: 1 },
        { type: 'large500_yearly', hosts: 2 },
      ],
      plan_webinar: [{ type: 'webinar500_yearly', hosts: 1 }],
      plan_recording: 'cmr_monthly_commitment_500',
      plan_audio: { type: 'tollfree_monthly_commitment_100', tollfree_country: 'AT', premium_country: 'TW', callout: 0, ddi_numbers: 66 },
    });
    const plans = await v2Plans(id);
    expect(plans.plan_vendor_rooms).toEqual({ type: 'zroom_monthly', hosts: 2 });
    expect(plans.plan_audio).toMatchObject({ tollfree_countries: 'AT', premium_countries: 'TW', ddi_numbers: 66 });
    expect(await v2Billing(id)).toEqual({ ...CONTACT, email });
  });

  it('answers 300 naming the plan field whose JSON is bad, and subscribes nothing', async () => {
    const { id } = await createSubAccount();
    const base = { account_id: id, ...CONTACT };
    expectV1Error(
      await gw.v1('/ma/account/plan/subscribe', { ...base, plan_base: '{type: monthly' }),
      300,
      'Invalid parameter: plan_base. Must be valid JSON.',
    );
    expectV1Error(
      await gw.v1('/ma/account/plan/subscribe', {
        ...base,
        plan_base: JSON.stringify(BASE),
        plan_webinar: '[{"type":"webinar100_monthly"',
      }),
      300,
      'Invalid parameter: plan_webinar. Must be valid JSON.',
    );
    expectV1Error(
      await gw.v1('/ma/account/plan/subscribe', { ...base, plan_base: '{"type":"monthly"}' }),
      300,
      /^Invalid parameter: plan_base\..*hosts/,
    );
    expect(await gw.v1('/ma/account/plan/subscribe', base)).toEqual({ error: { code: 300, message: 'plan_base is required.' } });
    expect(await gw.v1('/ma/account/plan/subscribe', { account_id: id, plan_base: JSON.stringify(BASE) })).toEqual({
      error: { code: 300, message: 'first_name is required.' },
    });
    expect(await v2Plans(id)).toEqual({ plan_large_meeting: [], plan_webinar: [] });
  });

  it('names the v1 field when v2 refuses a plan, and subscribes nothing', async () => {
    const { id } = await createSubAccount();
    const base = { account_id: id, ...CONTACT, plan_base: JSON.stringify(BASE) };
    expectV1Error(
      await gw.v1('/ma/account/plan/subscribe', { ...base, plan_base: '{"type":"platinum","hosts":1}' }),
      300,
      /^Invalid parameter: plan_base\. Unknown plan type/,
    );
    expectV1Error(
      await gw.v1('/ma/account/plan/subscribe', {
        ...base,
        plan_large_meeting: '[{"type":"large100_monthly","hosts":1},{"type":"webinar100_monthly","hosts":1}]',
      }),
      300,
      /^Invalid parameter: plan_large_meeting\./,
    );
    expect(await v2Plans(id)).toEqual({ plan_large_meeting: [], plan_webinar: [] });
  });

  it('answers 2001 for an unknown account', async () => {
    expectV1Error(
      await gw.v1('/ma/account/plan/subscribe', { account_id: 'no-such-account', ...CONTACT, plan_base: JSON.stringify(BASE) }),
      2001,
    );
  });
});

describe('/ma/account/plan/get', () => {
  it('joins the plan set with the billing contact, in v1 names', async () => {
    const { id, email } = await paidSubAccount({
      plan_audio: {
        type: 'tollfree_monthly_commitment_100',
        tollfree_countries: 'AT,DE',
        premium_countries: '',
        callout_countries: 'US',
        ddi_numbers: 2,
      },
      plan_webinar: [{ type: 'webinar100_monthly', hosts: 1 }],
    });
    const answer = await gw.v1('/ma/account/plan/get', { account_id: id });
    expectV1Shape(
      answer,
      { ...CONTACT_SHAPE, plan_base: 'object', plan_large_meeting: 'array', plan_webinar: 'array', plan_audio: 'object' },
      { inOrder: true },
    );
    expect(answer).toMatchObject({
      email,
      first_name: 'Bill',
      plan_base: BASE,
      plan_large_meeting: [],
      plan_webinar: [{ type: 'webinar100_monthly', hosts: 1 }],
      plan_audio: { type: 'tollfree_monthly_commitment_100', tollfree_country: 'AT,DE', premium_country: '', callout: 1, ddi_numbers: 2 },
    });
  });

  it('answers 2001 for an unknown account', async () => {
    expectV1Error(await gw.v1('/ma/account/plan/get', { account_id: 'no-such-account' }), 2001);
  });
});

describe('/ma/account/plan/add', () => {
  it('adds an additional plan', async () => {
    const { id } = await paidSubAccount();
    const answer = await gw.v1('/ma/account/plan/add', { account_id: id, plan: '{"type":"large200_monthly","hosts":4}' });
    expectV1Shape(answer, { id: 'string', updated_at: 'string' }, { inOrder: true });
    expect(answer).toEqual({ id, updated_at: expect.stringMatching(V1_TIME) });
    expect((await v2Plans(id)).plan_large_meeting).toEqual([{ type: 'large200_monthly', hosts: 4 }]);
  });

  it('answers 300 naming plan for bad JSON or a plan v2 refuses, changing nothing', async () => {
    const { id } = await paidSubAccount();
    const before = await v2Plans(id);
    expectV1Error(
      await gw.v1('/ma/account/plan/add', { account_id: id, plan: 'large200' }),
      300,
      'Invalid parameter: plan. Must be valid JSON.',
    );
    expectV1Error(
      await gw.v1('/ma/account/plan/add', { account_id: id, plan: '{"type":"nope","hosts":1}' }),
      300,
      /^Invalid parameter: plan\. /,
    );
    expect(await gw.v1('/ma/account/plan/add', { account_id: id })).toEqual({ error: { code: 300, message: 'plan is required.' } });
    expect(await v2Plans(id)).toEqual(before);
  });

  it("answers v2's refusal for a free account, and 2001 for an unknown one", async () => {
    const { id } = await createSubAccount();
    expectV1Error(
      await gw.v1('/ma/account/plan/add', { account_id: id, plan: '{"type":"large200_monthly","hosts":4}' }),
      300,
      /free account/,
    );
    expectV1Error(
      await gw.v1('/ma/account/plan/add', { account_id: 'no-such-account', plan: '{"type":"large200_monthly","hosts":4}' }),
      2001,
    );
  });
});

describe('/ma/account/plan/update', () => {
  it('type 1 (the default) changes the base plan', async () => {
    const { id } = await paidSubAccount();
    expect(await gw.v1('/ma/account/plan/update', { account_id: id, type: 1, plan: '{"type":"business_monthly","hosts":12}' })).toEqual({
      id,
      updated_at: expect.stringMatching(V1_TIME),
    });
    expect((await v2Plans(id)).plan_base).toEqual({ type: 'business_monthly', hosts: 12 });
    await gw.v1('/ma/account/plan/update', { account_id: id, plan: '{"type":"yearly","hosts":3}' });
    expect((await v2Plans(id)).plan_base).toEqual({ type: 'yearly', hosts: 3 });
  });

  it('type 2 changes an additional plan', async () => {
    const { id } = await paidSubAccount({ plan_webinar: [{ type: 'webinar100_monthly', hosts: 1 }] });
    const answer = await gw.v1('/ma/account/plan/update', { account_id: id, type: 2, plan: '{"type":"webinar100_monthly","hosts":7}' });
    expectV1Shape(answer, { id: 'string', updated_at: 'string' }, { inOrder: true });
    expect((await v2Plans(id)).plan_webinar).toEqual([{ type: 'webinar100_monthly', hosts: 7 }]);
  });

  it('answers 300 for a bad type or plan, changing nothing', async () => {
    const { id } = await paidSubAccount();
    const before = await v2Plans(id);
    expectV1Error(
      await gw.v1('/ma/account/plan/update', { account_id: id, type: 3, plan: JSON.stringify(BASE) }),
      300,
      /^Invalid parameter: type\./,
    );
    expectV1Error(
      await gw.v1('/ma/account/plan/update', { account_id: id, type: 1, plan: '{"type":"monthly","hosts":50}' }),
      300,
      /^Invalid parameter: plan\. /,
    );
    expectV1Error(
      await gw.v1('/ma/account/plan/update', { account_id: id, plan: '{"type":"monthly","hosts":2,"extra":1}' }),
      300,
      /^Invalid parameter: plan\./,
    );
    expect(await v2Plans(id)).toEqual(before);
  });
});

describe('/ma/account/billing/update', () => {
  it('changes only the contact fields given', async () => {
    const { id, email } = await paidSubAccount();
    const answer = await gw.v1('/ma/account/billing/update', { account_id: id, city: 'Shelbyville', zip: '12345' });
    expectV1Shape(answer, { id: 'string', updated_at: 'string' }, { inOrder: true });
    expect(answer).toEqual({ id, updated_at: expect.stringMatching(V1_TIME) });
    expect(await v2Billing(id)).toEqual({ ...CONTACT, email, city: 'Shelbyville', zip: '12345' });
  });

  it("answers 2001 for an unknown account and v2's refusal for a free one", async () => {
    expectV1Error(await gw.v1('/ma/account/billing/update', { account_id: 'no-such-account', city: 'X' }), 2001);
    const { id } = await createSubAccount();
    expectV1Error(await gw.v1('/ma/account/billing/update', { account_id: id, city: 'X' }), 300, /free account/);
  });
});
