import { BILLING_CONTACT_ROWS, PLAN_ANSWER, PLAN_SET_ROWS, planObject } from '../../../mappings/plans.js';
import { answer } from '../../v1/answer.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape, toV1, toV2 } from '../../v1/field-map.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { accountIdParam } from './account-path.js';
import { V2 } from '../../v2-contract/v2-routes.js';

/**
 * The plan calls of a sub account. Plans travel as JSON text in v1 form fields (parsed and checked
 * by the PLAN_SET_ROWS types: bad JSON is a 300 naming the field) and as JSON objects in v2.
 */

const v1PlanAnswer = (contact: unknown, plans: unknown) =>
  answer(PLAN_ANSWER, toV1(PLAN_SET_ROWS, plans), toV1(BILLING_CONTACT_ROWS, contact));

const contactInput = inputShape(BILLING_CONTACT_ROWS);
const required = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, v1.string()]));

/**
 * /ma/account/plan/subscribe → GET /accounts/{id} (v2 wants a contact email, v1 sends none: the
 * owner's is used) then POST /accounts/{id}/plans. Answers the contact and the plan set v2 stored.
 */
export const accountPlanSubscribe = defineEndpoint({
  path: '/ma/account/plan/subscribe',
  params: v1Params({
    ...contactInput,
    ...required(['first_name', 'last_name', 'phone_number', 'address', 'city', 'country', 'state', 'zip']),
    ...inputShape(PLAN_SET_ROWS),
    plan_base: PLAN_SET_ROWS.find((row) => row.v1 === 'plan_base')!.type!,
    ...accountIdParam,
  }),
  v2Calls: [V2.accounts.get, V2.accounts.subscribe],
  tables: [BILLING_CONTACT_ROWS, PLAN_SET_ROWS],
  // The contact rows describe the `contact` object of the v2 body (`contact.zip` → zip).
  v2Naming: { moved: [{ table: BILLING_CONTACT_ROWS, add: 'contact.' }] },
  async handle(params, ctx) {
    const { owner_email } = await ctx.v2.get(V2.accounts.get.at(params.account_id));
    const contact = { ...toV2(BILLING_CONTACT_ROWS, params), email: owner_email };
    const plans = await ctx.v2.post(V2.accounts.subscribe.at(params.account_id), { contact, ...toV2(PLAN_SET_ROWS, params) });
    return v1PlanAnswer(contact, plans);
  },
});

/** /ma/account/plan/get → GET /accounts/{id}/plans and GET /accounts/{id}/billing, joined. */
export const accountPlanGet = defineEndpoint({
  path: '/ma/account/plan/get',
  params: v1Params(accountIdParam),
  v2Calls: [V2.accounts.plans, V2.accounts.billing],
  tables: [BILLING_CONTACT_ROWS, PLAN_SET_ROWS],
  async handle({ account_id }, ctx) {
    const [plans, contact] = await Promise.all([
      ctx.v2.get(V2.accounts.plans.at(account_id)),
      ctx.v2.get(V2.accounts.billing.at(account_id)),
    ]);
    return v1PlanAnswer(contact, plans);
  },
});

/** `plan`: one plan as JSON text, `{"type": ..., "hosts": ...}`, sent as the whole v2 body. */
const planParam = { plan: v1.json(planObject) };
/** v2 field errors on the plan's fields (`hosts`) name `plan`, the v1 field that carried them. */
const PLAN_BODY_NAMING = { overrides: Object.fromEntries(Object.keys(planObject.shape).map((field) => [field, 'plan'])) };

/** /ma/account/plan/add → POST /accounts/{id}/plans/addons: an additional plan. */
export const accountPlanAdd = defineEndpoint({
  path: '/ma/account/plan/add',
  params: v1Params({ ...accountIdParam, ...planParam }),
  v2Calls: [V2.accounts.addAddon],
  v2Naming: PLAN_BODY_NAMING,
  async handle({ account_id, plan }, ctx) {
    await ctx.v2.post(V2.accounts.addAddon.at(account_id), plan);
    return { id: account_id, updated_at: ctx.nowIso() };
  },
});

/** v1 plan/update `type`: 1 the base plan, 2 an additional plan. */
const PLAN_UPDATE_ROUTE = { 1: V2.accounts.updateBasePlan, 2: V2.accounts.updateAddon } as const;

/**
 * /ma/account/plan/update → PUT /accounts/{id}/plans/base (type 1, the default) or
 * PUT /accounts/{id}/plans/addons (type 2).
 */
export const accountPlanUpdate = defineEndpoint({
  path: '/ma/account/plan/update',
  params: v1Params({ ...accountIdParam, ...planParam, type: v1.intOneOf([1, 2]).optional() }),
  v2Calls: Object.values(PLAN_UPDATE_ROUTE),
  v2Naming: PLAN_BODY_NAMING,
  async handle({ account_id, plan, type = 1 }, ctx) {
    await ctx.v2.put(PLAN_UPDATE_ROUTE[type].at(account_id), plan);
    return { id: account_id, updated_at: ctx.nowIso() };
  },
});
