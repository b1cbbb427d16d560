import type { RateLimitPlan } from '../rate-limit.js';

/**
 * Accounts: the master account the sandbox starts with, and the sub accounts created under it.
 * Field names are the v2 ones, so records render without renaming.
 * Owned by the accounts area (src/sandbox/accounts/); other areas only read it.
 */

export type PayMode = 'master' | 'sub';

export interface AccountOptions {
  share_rc: boolean;
  room_connectors: string;
  share_mc: boolean;
  meeting_connectors: string;
  pay_mode: PayMode;
}

/** Nested settings groups (`schedule_meeting`, `in_meeting`, ...), as GET /accounts/{id}/settings renders them. */
export type AccountSettings = Record<string, Record<string, unknown>>;

export interface BillingContact {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  address: string;
  apt: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface Plan {
  type: string;
  hosts: number;
}

export interface PlanAudio {
  type: string;
  tollfree_countries: string;
  premium_countries: string;
  callout_countries: string;
  ddi_numbers: number;
}

export interface PlanSet {
  plan_base: Plan;
  plan_vendor_rooms?: Plan;
  plan_room_connector?: Plan;
  plan_large_meeting: Plan[];
  plan_webinar: Plan[];
  plan_recording?: string;
  plan_audio?: PlanAudio;
}

export interface Account {
  id: string;
  /** API credentials: the JWT's `iss` is `apiKey`, signed with `apiSecret`. */
  apiKey: string;
  apiSecret: string;
  /** null for the master account; the master's id for a sub account. */
  masterAccountId: string | null;
  /** Set by DELETE /accounts/{id}: the account stays intact but leaves the master's list. */
  disassociated: boolean;
  ownerId: string;
  account_name: string;
  account_type: string;
  seats: number;
  subscription_start_time: string;
  subscription_end_time: string;
  created_at: string;
  options: AccountOptions;
  settings: AccountSettings;
  billing: BillingContact | null;
  plans: PlanSet | null;
  /** Which plan's v2 rate limits the account is held to (src/sandbox/rate-limit.ts); Pro when unset. */
  rateLimitPlan?: RateLimitPlan;
  /**
   * On the service's allowlist for the deprecated `GET /users/{userId}/token?type=token`: only such an
   * account is still given a Zoom token (src/sandbox/users/tokens.ts); unset, as for every account
   * today's documents do not name.
   */
  legacyTokenAllowlisted?: boolean;
  /**
   * The IM Group APIs retired for this account: every `/im/groups` route answers 410 with code 4137,
   * as each of them documents; set by the control API (`PUT /sandbox/accounts/{id}/im-groups`).
   */
  imGroupsRetired?: boolean;
}
