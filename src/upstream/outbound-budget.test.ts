import { describe, expect, it } from 'vitest';
import type { OAuthApp } from './auth/oauth-tokens.js';
import type { Credentials } from './credentials.js';
import { V2Budgets } from './outbound-budget.js';

const app: OAuthApp = { kind: 'oauth', accountId: 'acc-1', clientId: 'c', clientSecret: 's', plan: 'business' };
const pair: Credentials = { apiKey: 'k', apiSecret: 'secret' };

describe("a pair's plan, known at once (the fan-out pre-check)", () => {
  it("is a mapped identity's plan, else the default", () => {
    const budgets = new V2Budgets('pro');
    expect(budgets.planOf({ ...pair, v2: app })).toBe('business');
    expect(budgets.planOf({ ...pair, v2: { ...app, plan: undefined } })).toBe('pro');
    expect(budgets.planOf(pair)).toBe('pro');
  });

  it("is the embedded sandbox account's, found at once", () => {
    const budgets = new V2Budgets('pro', (given) => (given.apiSecret === pair.apiSecret ? app : undefined));
    expect(budgets.planOf(pair)).toBe('business');
    expect(budgets.planOf({ ...pair, apiSecret: 'wrong' })).toBe('pro');
  });

  it("is what the pair's last lookup in a sandbox elsewhere found (a cluster worker's), the default before any", async () => {
    let lookups = 0;
    const budgets = new V2Budgets('pro', () => {
      lookups++;
      return Promise.resolve(app);
    });
    expect(budgets.planOf(pair)).toBe('pro');
    // The call's first v2 call looks the pair up before the call can fan out.
    expect(await budgets.of(pair)).toEqual({ account: 'account:acc-1', plan: 'business' });
    expect(budgets.planOf(pair)).toBe('business');
    expect(lookups).toBe(3);
  });
});
