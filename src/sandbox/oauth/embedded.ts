import { timingSafeEqual } from 'node:crypto';
import type { SandboxState } from '../state.js';
import type { RateLimitPlan } from '../../v2-contract/rate-limit-plans.js';

/** A server-to-server OAuth app as a v2 client is configured with it. */
export interface AppCredentials {
  kind: 'oauth';
  accountId: string;
  clientId: string;
  clientSecret: string;
  /** The account's rate-limit plan, when set (PUT /sandbox/accounts/{id}/rate-limit-plan): what sizes v1gate's outbound budgets for it. */
  plan?: RateLimitPlan;
}

/**
 * The OAuth app a legacy pair of one of the sandbox's accounts acts as, for a gateway that embeds
 * the sandbox: today's v2 takes no JWT, so the account's API key and secret, matched here in
 * constant time, stand for its server-to-server app (made for an account that has none yet, as
 * the service's admin would make one). Undefined for a key no account has or a secret not its own.
 */
export function embeddedAppOf(state: SandboxState, apiKey: string, apiSecret: string): AppCredentials | undefined {
  const account = state.accountsByKey.get(apiKey);
  if (!account) return undefined;
  const given = Buffer.from(apiSecret);
  const expected = Buffer.from(account.apiSecret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const app =
    state.oauthApps.ofAccount(account.id)[0] ??
    state.oauthApps.add({ accountId: account.id, name: 'v1gate (embedded)', createdAt: state.nowIso() });
  return {
    kind: 'oauth',
    accountId: account.id,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    ...(account.rateLimitPlan ? { plan: account.rateLimitPlan } : {}),
  };
}
