import { z } from 'zod';
import { outputFieldsOf, type AnswerShape } from '../src/v1/answer.js';
import type { Codec, FieldTable } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';

/**
 * Plans and the billing contact of a sub account. v1 sends each plan as JSON text inside a form
 * field (`plan_base={"type":"monthly","hosts":9}`); v2 takes the same objects in a JSON body, with
 * the contact nested under `contact` on subscribe and flat on PATCH billing. The plan type
 * identifiers are passed on unchanged (v2 checks them).
 */

/** Hosts as a JSON number, or as a numeric string (v1 clients built these JSON texts by hand). */
const hosts = z.union([z.int(), z.string().regex(/^\d+$/).transform(Number)], { error: 'hosts must be an integer.' });

/** One plan: `{"type": "...", "hosts": n}`. */
export const planObject = z.strictObject({ type: z.string({ error: 'type must be text.' }).min(1, 'type must not be empty.'), hosts });

/** v1 lists several large meeting or webinar plans as a JSON array; a single object is taken as a list of one. */
const planList = z.union([z.array(planObject), planObject.transform((plan) => [plan])], {
  error: 'Must be a plan object or a JSON array of plan objects ({"type": ..., "hosts": ...}).',
});

/** The v1 audio plan: v1 spells the country lists in the singular and has an integer `callout`. */
const audioPlan = z.strictObject({
  type: z.string({ error: 'type must be text.' }).min(1, 'type must not be empty.'),
  tollfree_country: z.string().optional(),
  premium_country: z.string().optional(),
  callout: z.union([z.int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  ddi_numbers: z.union([z.int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
});

type V1AudioPlan = z.output<typeof audioPlan>;
interface V2AudioPlan {
  type: string;
  tollfree_countries?: string;
  premium_countries?: string;
  callout_countries?: string;
  ddi_numbers?: number;
}

/**
 * v1 plan_audio ↔ v2 plan_audio. The country lists change name only. v1's integer `callout` has no
 * v2 counterpart (v2 lists call-out countries instead): it is dropped on input and answered as 1
 * when the plan has call-out countries, else 0.
 */
export const audioPlanCodec: Codec<V1AudioPlan, V2AudioPlan> = {
  name: 'audio plan: tollfree_country↔tollfree_countries, premium_country↔premium_countries, callout (dropped in; 1 when callout_countries is set, out)',
  toV2(plan) {
    const out: V2AudioPlan = { type: plan.type };
    if (plan.tollfree_country !== undefined) out.tollfree_countries = plan.tollfree_country;
    if (plan.premium_country !== undefined) out.premium_countries = plan.premium_country;
    if (plan.ddi_numbers !== undefined) out.ddi_numbers = plan.ddi_numbers;
    return out;
  },
  toV1(plan) {
    return {
      type: plan.type,
      tollfree_country: plan.tollfree_countries ?? '',
      premium_country: plan.premium_countries ?? '',
      callout: plan.callout_countries ? 1 : 0,
      ddi_numbers: plan.ddi_numbers ?? 0,
    };
  },
};

/** The plan set, as v1 subscribe takes it and v1 subscribe and plan/get answer it (v2 paths are the same names). */
export const PLAN_SET_ROWS: FieldTable = [
  { v1: 'plan_base', v2: 'plan_base', type: v1.json(planObject) },
  {
    v1: 'plan_vendor_rooms',
    v2: 'plan_vendor_rooms',
    type: v1.json(planObject),
    aliases: ['plan_zoom_rooms'],
    note: "Old clients send the branded name plan_zoom_rooms; it is accepted. Answers use the spec's plan_vendor_rooms.",
  },
  { v1: 'plan_room_connector', v2: 'plan_room_connector', type: v1.json(planObject) },
  {
    v1: 'plan_large_meeting',
    v2: 'plan_large_meeting',
    type: v1.json(planList),
    note: 'A JSON array of plans; a single plan object is taken as a list of one.',
  },
  {
    v1: 'plan_webinar',
    v2: 'plan_webinar',
    type: v1.json(planList),
    note: 'A JSON array of plans; a single plan object is taken as a list of one.',
  },
  { v1: 'plan_recording', v2: 'plan_recording', type: v1.string(), note: 'A plan type, as plain text (not JSON).' },
  { v1: 'plan_audio', v2: 'plan_audio', type: v1.json(audioPlan), codec: audioPlanCodec, note: 'See the codec: callout has no v2 home.' },
];

/**
 * The billing ("sold to") contact, in the order v1 answers it. v1 never sends `email`: on subscribe
 * the gateway fills it with the sub account owner's email (v2 requires one); it is answered back.
 */
export const BILLING_CONTACT_ROWS: FieldTable = [
  { v1: 'email', v2: 'email', direction: 'out', note: "Not a v1 input: subscribe sends the sub account owner's email, which v2 requires." },
  { v1: 'first_name', v2: 'first_name', type: v1.string() },
  { v1: 'last_name', v2: 'last_name', type: v1.string() },
  { v1: 'phone_number', v2: 'phone_number', type: v1.string() },
  { v1: 'address', v2: 'address', type: v1.string() },
  { v1: 'apt', v2: 'apt', type: v1.string() },
  { v1: 'city', v2: 'city', type: v1.string() },
  { v1: 'state', v2: 'state', type: v1.string(), note: 'A state id when the country is US or CA.' },
  { v1: 'zip', v2: 'zip', type: v1.string() },
  { v1: 'country', v2: 'country', type: v1.string(), note: 'A country id.' },
];

/** The v1 answer of subscribe and plan/get: the contact fields, then the plan set. */
export const PLAN_ANSWER: AnswerShape = { fields: [...outputFieldsOf(BILLING_CONTACT_ROWS), ...outputFieldsOf(PLAN_SET_ROWS)] };
