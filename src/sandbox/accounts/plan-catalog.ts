/**
 * Every plan type the sandbox sells, and where it goes in the plan set. The v2 spec gives the base
 * plans' host ranges but says the type identifiers are "not shown"; the reference's only examples
 * (the v1 plan answers) use `monthly` for a 9-host base plan, `zroom_monthly`, `roomconnector_yearly`,
 * `large100_monthly`…`large500_yearly`, `webinar100_monthly`…`webinar10000_monthly`,
 * `cmr_monthly_commitment_500` and `tollfree_monthly_commitment_100`. We keep those spellings
 * (v1 clients send them through the gateway unchanged) and name the rest after the same pattern.
 * This table is the only place that knows a plan type.
 */

export type AddonSlot =
  'plan_vendor_rooms' | 'plan_room_connector' | 'plan_large_meeting' | 'plan_webinar' | 'plan_recording' | 'plan_audio';

export type PlanSlot = 'plan_base' | AddonSlot;

export type PlanTerm = 'monthly' | 'yearly' | 'trial';

export interface PlanKind {
  /** Where the plan lives in the plan set. */
  slot: PlanSlot;
  /** For messages: "Pro", "Business", ... */
  label: string;
  minHosts: number;
  maxHosts: number;
  /** How long a subscription to it runs. */
  term: PlanTerm;
}

/** Add-on plans count hosts (or rooms) too; the spec sets no range, so any positive count up to the trial's maximum. */
const ADDON_HOSTS = [1, 9999] as const;

type Row = [type: string, kind: PlanKind];

function both(
  name: (term: 'monthly' | 'yearly') => string,
  slot: PlanSlot,
  label: string,
  [minHosts, maxHosts]: readonly [number, number],
): Row[] {
  return (['monthly', 'yearly'] as const).map((term) => [name(term), { slot, label, minHosts, maxHosts, term }]);
}

export const PLAN_CATALOG: ReadonlyMap<string, PlanKind> = new Map<string, PlanKind>([
  // Base plans: the host ranges are the v2 spec's.
  ['trial', { slot: 'plan_base', label: 'Free Trial', minHosts: 1, maxHosts: 9999, term: 'trial' }],
  ...both((t) => t, 'plan_base', 'Pro', [1, 9]),
  ...both((t) => `business_${t}`, 'plan_base', 'Business', [10, 49]),
  ...both((t) => `edu_${t}`, 'plan_base', 'Education', [20, 149]),
  // Add-ons.
  ...both((t) => `zroom_${t}`, 'plan_vendor_rooms', 'Vendor Rooms', ADDON_HOSTS),
  ...both((t) => `roomconnector_${t}`, 'plan_room_connector', 'Room Connector', ADDON_HOSTS),
  ...[100, 200, 300, 500].flatMap((n) => both((t) => `large${n}_${t}`, 'plan_large_meeting', `Large Meeting ${n}`, ADDON_HOSTS)),
  ...[100, 500, 1000, 3000, 5000, 10000].flatMap((n) => both((t) => `webinar${n}_${t}`, 'plan_webinar', `Webinar ${n}`, ADDON_HOSTS)),
  ...[100, 200, 500, 1000].flatMap((n) => both((t) => `cmr_${t}_commitment_${n}`, 'plan_recording', 'Cloud Recording', ADDON_HOSTS)),
  ...[100, 200, 500, 1000].flatMap((n) => both((t) => `tollfree_${t}_commitment_${n}`, 'plan_audio', 'Audio Conferencing', ADDON_HOSTS)),
]);

/** Slots that hold several plans (one per type) rather than one. */
export type ListSlot = 'plan_large_meeting' | 'plan_webinar';

export function isListSlot(slot: PlanSlot): slot is ListSlot {
  return slot === 'plan_large_meeting' || slot === 'plan_webinar';
}

/** What is wrong with `{type, hosts}` as a plan for one of `slots` (hosts unchecked when absent); empty when it is fine. */
export function planProblems(
  type: string,
  hosts: number | undefined,
  slots: readonly PlanSlot[],
): { field: 'type' | 'hosts'; message: string }[] {
  const kind = PLAN_CATALOG.get(type);
  if (!kind || !slots.includes(kind.slot)) {
    // One slot's types make a short, useful list; all add-on types together would not.
    const valid = [...PLAN_CATALOG].filter(([, k]) => slots.includes(k.slot)).map(([t]) => t);
    const hint =
      slots.length === 1 ? ` Valid types: ${valid.join(', ')}.` : ' Add-on types look like large100_monthly or webinar500_yearly.';
    return [{ field: 'type', message: `Unknown plan type for ${slots.length === 1 ? slots[0] : 'an add-on'}: ${type}.${hint}` }];
  }
  if (hosts !== undefined && (hosts < kind.minHosts || hosts > kind.maxHosts)) {
    return [{ field: 'hosts', message: `A ${kind.label} plan takes between ${kind.minHosts} and ${kind.maxHosts} hosts.` }];
  }
  return [];
}

/** When a subscription to a plan of `term` that starts at `start` ends. */
export function subscriptionEnd(start: Date, term: PlanTerm): Date {
  const end = new Date(start);
  if (term === 'monthly') end.setUTCMonth(end.getUTCMonth() + 1);
  else if (term === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCDate(end.getUTCDate() + 30);
  return end;
}
