import type { V2Budget } from '../ratelimit/outbound-limiter.js';
import type { RateLimitPlan } from '../v2-contract/rate-limit-plans.js';
import type { EmbeddedApps } from './auth/authorizer.js';
import type { V2Identity } from './auth/v2-identity.js';
import type { Credentials } from './credentials.js';

/**
 * Whose v2 budgets a pair's calls spend. Today's service counts per account, whatever app or key
 * the call came with, so the account is what the call acts as toward v2:
 *
 * - a key the credential map names: its OAuth app's `account_id`, or (a JWT app, which names no
 *   account) that app, one budget per app;
 * - a pair of one of the embedded sandbox's accounts: that account;
 * - any other pair signs its own JWT, and is its own budget.
 *
 * The plan is the map entry's `plan`, or the sandbox account's, else OUTBOUND_DEFAULT_PLAN.
 */
export class V2Budgets {
  /** A mapped identity's budget, made once per identity (a map reload makes new identities). */
  private readonly mapped = new WeakMap<V2Identity, V2Budget>();
  /** The budget a pair's last lookup (among a sandbox's accounts elsewhere) found: what `planOf` answers while none is at hand. */
  private readonly found = new WeakMap<Credentials, V2Budget>();

  constructor(
    private readonly defaultPlan: RateLimitPlan,
    private readonly embedded?: EmbeddedApps,
  ) {}

  /** Synchronous unless the pair must be looked up among the embedded sandbox's accounts. */
  of(credentials: Credentials): V2Budget | Promise<V2Budget> {
    if (credentials.v2) return this.ofIdentity(credentials.v2);
    if (!this.embedded) return this.ofPair(credentials);
    const app = this.embedded(credentials);
    if (app instanceof Promise) return app.then((found) => this.keep(credentials, found ? this.fresh(found) : this.ofPair(credentials)));
    return app ? this.fresh(app) : this.ofPair(credentials);
  }

  /**
   * The plan the pair's calls are held to, at once: what the fan-out pre-check sizes by, as the
   * buckets its calls then spend are sized. A pair looked up among the accounts of a sandbox
   * elsewhere (a cluster worker's) has the plan its last lookup found; a v1 call fans out after a
   * first v2 call, which looked the pair up. Before any lookup: OUTBOUND_DEFAULT_PLAN.
   */
  planOf(credentials: Credentials): RateLimitPlan {
    const budget = this.of(credentials);
    if (!(budget instanceof Promise)) return budget.plan;
    // Only what it finds is wanted, kept for the next ask; a lookup fails into no account, never rejects.
    budget.catch(() => {});
    return this.found.get(credentials)?.plan ?? this.defaultPlan;
  }

  private keep(credentials: Credentials, budget: V2Budget): V2Budget {
    this.found.set(credentials, budget);
    return budget;
  }

  private ofIdentity(identity: V2Identity): V2Budget {
    let budget = this.mapped.get(identity);
    if (!budget) this.mapped.set(identity, (budget = this.fresh(identity)));
    return budget;
  }

  private fresh(identity: V2Identity): V2Budget {
    const account = identity.kind === 'oauth' ? `account:${identity.accountId}` : `jwt-app:${identity.key}`;
    return { account, plan: identity.plan ?? this.defaultPlan };
  }

  private ofPair(credentials: Credentials): V2Budget {
    return { account: `pair:${credentials.apiKey}`, plan: this.defaultPlan };
  }
}
