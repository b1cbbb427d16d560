import type { SandboxApp, SandboxContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { badRequest, conflict, V2Code } from '../errors.js';
import type { Account, Plan, PlanAudio, PlanSet } from '../model/account.js';
import type { SandboxState } from '../state.js';
import { readBody } from '../validation.js';
import { requireBillingTarget, requireManagedAccount } from './access.js';
import { contactFrom } from './billing.js';
import { isListSlot, PLAN_CATALOG, subscriptionEnd, type AddonSlot } from './plan-catalog.js';
import { addonPlanSchema, basePlanSchema, subscribeSchema } from './plan-schemas.js';
import { requirePaidByMaster } from './payment.js';

/**
 * Plans of an account: subscribe once (POST), then change the base plan (PUT base) and add or
 * change add-ons (POST/PUT addons). The base plan sets the account's seats and subscription period.
 */
export function registerPlanRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/accounts/:accountId/plans', (c) => {
    const account = requireManagedAccount(state, c.get('account'), c.req.param('accountId'));
    requirePaidByMaster(account, 'any');
    return c.json(renderPlanSet(account.plans));
  });

  app.post('/accounts/:accountId/plans', async (c) => {
    const account = requireBillingTarget(state, c.get('account'), c.req.param('accountId'));
    const body = await readBody(c, subscribeSchema);
    requirePaidByMaster(account, 'free');
    const plans: PlanSet = {
      plan_base: body.plan_base,
      plan_vendor_rooms: body.plan_vendor_rooms,
      plan_room_connector: body.plan_room_connector,
      plan_large_meeting: body.plan_large_meeting ?? [],
      plan_webinar: body.plan_webinar ?? [],
      plan_recording: body.plan_recording,
      plan_audio: body.plan_audio && { ...EMPTY_AUDIO, ...body.plan_audio },
    };
    account.plans = plans;
    account.billing = contactFrom(body.contact);
    startBasePlan(state, account, body.plan_base);
    return c.json(renderPlanSet(plans), 201);
  });

  app.put('/accounts/:accountId/plans/base', async (c) => {
    const account = requireBillingTarget(state, c.get('account'), c.req.param('accountId'));
    const plan = await readBody(c, basePlanSchema);
    const plans = paidPlans(account);
    plans.plan_base = plan;
    startBasePlan(state, account, plan);
    return c.body(null, 204);
  });

  app.post('/accounts/:accountId/plans/addons', async (c) => {
    const account = requireBillingTarget(state, c.get('account'), c.req.param('accountId'));
    const plan = await readBody(c, addonPlanSchema);
    const plans = paidPlans(account);
    const slot = slotOf(plan);
    if (holdsAddon(plans, slot, plan.type)) {
      throw conflict(V2Code.invalidParameter, `The account already has a ${slot} add-on of this kind: change it with PUT plans/addons.`);
    }
    putAddon(plans, slot, plan);
    return c.body(null, 201);
  });

  app.put('/accounts/:accountId/plans/addons', async (c) => {
    const account = requireBillingTarget(state, c.get('account'), c.req.param('accountId'));
    const plan = await readBody(c, addonPlanSchema);
    const plans = paidPlans(account);
    const slot = slotOf(plan);
    if (!holdsAddon(plans, slot, plan.type)) {
      throw badRequest(`The account has no ${slot} add-on of type ${plan.type} to update: add it with POST plans/addons.`);
    }
    putAddon(plans, slot, plan);
    return c.body(null, 204);
  });
}

const EMPTY_AUDIO: PlanAudio = { type: '', tollfree_countries: '', premium_countries: '', callout_countries: '', ddi_numbers: 0 };

function paidPlans(account: Account): PlanSet {
  requirePaidByMaster(account, 'paid');
  return account.plans!;
}

/** The base plan decides the seats and restarts the subscription period for its term. */
function startBasePlan(state: SandboxState, account: Account, plan: Plan): void {
  const now = state.now();
  account.seats = plan.hosts;
  account.subscription_start_time = isoSeconds(now);
  account.subscription_end_time = isoSeconds(subscriptionEnd(now, PLAN_CATALOG.get(plan.type)!.term));
}

function slotOf(plan: Plan): AddonSlot {
  return PLAN_CATALOG.get(plan.type)!.slot as AddonSlot;
}

/**
 * Whether the add-on's place is taken: in a list slot, by a plan of the same type; in any other
 * slot, by whatever plan is there (an account has one vendor rooms plan, one recording plan, ...).
 */
function holdsAddon(plans: PlanSet, slot: AddonSlot, type: string): boolean {
  if (isListSlot(slot)) return plans[slot].some((p) => p.type === type);
  return plans[slot] !== undefined;
}

/**
 * Store an add-on in its slot. Recording and audio plans are bought by commitment, not per host:
 * `hosts` is validated like any add-on's but the plan set has nowhere to keep it.
 */
function putAddon(plans: PlanSet, slot: AddonSlot, plan: Plan): void {
  switch (slot) {
    case 'plan_large_meeting':
    case 'plan_webinar':
      // An update keeps the plan's place in the list; a new one goes last.
      plans[slot] = plans[slot].some((p) => p.type === plan.type)
        ? plans[slot].map((p) => (p.type === plan.type ? { ...plan } : p))
        : [...plans[slot], { ...plan }];
      break;
    case 'plan_vendor_rooms':
    case 'plan_room_connector':
      plans[slot] = { ...plan };
      break;
    case 'plan_recording':
      plans.plan_recording = plan.type;
      break;
    case 'plan_audio':
      plans.plan_audio = { ...EMPTY_AUDIO, ...plans.plan_audio, type: plan.type };
      break;
  }
}

/** The plan set as GET and POST plans answer it: the lists always present, the other slots when held. */
function renderPlanSet(plans: PlanSet | null): Record<string, unknown> {
  if (!plans) return { plan_large_meeting: [], plan_webinar: [] };
  return JSON.parse(JSON.stringify(plans)) as Record<string, unknown>;
}
