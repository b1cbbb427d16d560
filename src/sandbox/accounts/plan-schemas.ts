import { z } from 'zod';
import type { AddonSlot, PlanSlot } from './plan-catalog.js';
import { planProblems } from './plan-catalog.js';
import { orRequired } from '../users/schemas.js';
import { billingContactSchema } from './billing.js';

/** Request bodies of the plan endpoints; every plan type is checked against the catalog for its slot. */

const ADDON_SLOTS: readonly AddonSlot[] = [
  'plan_vendor_rooms',
  'plan_room_connector',
  'plan_large_meeting',
  'plan_webinar',
  'plan_recording',
  'plan_audio',
];

const planType = z.string(orRequired('Must be a string.'));

/** `typeAt`: where the type is, relative to the schema (`[]` when the plan is just its type string). */
function reportPlanProblems(
  ctx: z.core.$RefinementCtx,
  plan: { type: string; hosts?: number },
  slots: readonly PlanSlot[],
  typeAt: string[] = ['type'],
) {
  for (const problem of planProblems(plan.type, plan.hosts, slots)) {
    ctx.addIssue({ code: 'custom', path: problem.field === 'type' ? typeAt : ['hosts'], message: problem.message });
  }
}

/** `{type, hosts}` for one of `slots`. */
export function planSchema(slots: readonly PlanSlot[]) {
  return z
    .strictObject({ type: planType, hosts: z.int(orRequired('Must be an integer.')) })
    .superRefine((plan, ctx) => reportPlanProblems(ctx, plan, slots));
}

/** A list slot holds one plan per type. */
function planListSchema(slot: PlanSlot) {
  return z.array(planSchema([slot])).superRefine((plans, ctx) => {
    plans.forEach((plan, i) => {
      if (plans.findIndex((p) => p.type === plan.type) < i) {
        ctx.addIssue({ code: 'custom', path: [i, 'type'], message: `Plan type ${plan.type} is listed twice.` });
      }
    });
  });
}

const recordingPlanSchema = planType.superRefine((type, ctx) => reportPlanProblems(ctx, { type }, ['plan_recording'], []));

const audioPlanSchema = z
  .strictObject({
    type: planType,
    tollfree_countries: z.string().optional(),
    premium_countries: z.string().optional(),
    callout_countries: z.string().optional(),
    ddi_numbers: z.int().min(0, 'Must not be negative.').optional(),
  })
  .superRefine((audio, ctx) => reportPlanProblems(ctx, { type: audio.type }, ['plan_audio']));

export const subscribeSchema = z.strictObject({
  contact: billingContactSchema,
  plan_base: planSchema(['plan_base']),
  plan_vendor_rooms: planSchema(['plan_vendor_rooms']).optional(),
  plan_room_connector: planSchema(['plan_room_connector']).optional(),
  plan_large_meeting: planListSchema('plan_large_meeting').optional(),
  plan_webinar: planListSchema('plan_webinar').optional(),
  plan_recording: recordingPlanSchema.optional(),
  plan_audio: audioPlanSchema.optional(),
});

export const basePlanSchema = planSchema(['plan_base']);

export const addonPlanSchema = planSchema(ADDON_SLOTS);
