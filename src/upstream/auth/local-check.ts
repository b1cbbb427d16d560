import type { Credentials } from '../credentials.js';
import { ProofsExhausted, type ProofBudget } from '../pair-proof.js';
import type { CredentialMap, Verdict } from './credential-map.js';
import { candidatesOf, verifierOf, type ProvenSecretStore } from './proven-secrets.js';
import { Failure } from '../../shared/failure.js';

/**
 * The credential map's side of authentication: a key the map names is proven here, against its
 * secret's hash, with no v2 call; a wrong secret is refused here, costing v2 nothing. Each new pair
 * is hashed once (then remembered), under a budget per key and across keys, since anyone who knows
 * a mapped api_key can make v1gate hash a made-up secret. Owner first: a pair once matched is also
 * remembered past a restart and by every instance (proven-secrets.ts), and found there before any
 * budget is asked, so a flood of made-up secrets spends a budget the key's owner never needs.
 */

/** The map names the key, and the secret matches neither its hash nor a previous one still in its time. */
export class SecretRefused extends Failure {
  override readonly name = 'SecretRefused';
  readonly kind = 'secret-refused';
  constructor() {
    super('The api_secret does not match the credential map.');
  }
}

/** V2_CREDENTIALS_ONLY: the map does not name the key. */
export class KeyNotMapped extends Failure {
  override readonly name = 'KeyNotMapped';
  readonly kind = 'key-not-mapped';
  constructor() {
    super('The credential map does not name this api_key.');
  }
}

export interface LocalCheckOptions {
  /** The map in force now (a reload swaps it whole); undefined: no map. */
  map: () => CredentialMap | undefined;
  /** Refuse keys the map does not name. */
  only: boolean;
  /** Bounds the hash checks of new pairs; none: unbounded (tests). */
  budget?: ProofBudget;
  /** Where matched pairs are remembered past a restart and between instances; none: in this process's map only. */
  proven?: ProvenSecretStore;
  /** Milliseconds, for which previous secrets are still in their time; injectable for tests. */
  now?: () => number;
}

export interface LocalCheckStats {
  /** Pairs refused here: a wrong secret of a mapped key, or an unmapped key with V2_CREDENTIALS_ONLY. */
  refused: { wrongSecret: number; unmappedKey: number };
  /**
   * Pairs this process had not checked, by how each was decided: found among the pairs proven
   * before (no budget, no hash), hashed under the budget, or refused because the budget was spent.
   */
  checks: { remembered: number; hashed: number; overBudget: number };
}

export class LocalCheck {
  private readonly counts = { wrongSecret: 0, unmappedKey: 0 };
  private readonly checks = { remembered: 0, hashed: 0, overBudget: 0 };
  /**
   * The hash checks under way, by pair: an integration's first burst after a start or a reload
   * sends one pair many times at once, and it must cost one check of the budget, not one per call.
   */
  private readonly checking = new Map<string, Promise<Verdict>>();

  constructor(private readonly options: LocalCheckOptions) {}

  stats(): LocalCheckStats {
    return { refused: { ...this.counts }, checks: { ...this.checks } };
  }

  /**
   * True when the map proved the pair (its `v2` is set: whom to act as); false when the map does
   * not name the key (v2 proves the pair, as without a map). Throws SecretRefused, KeyNotMapped,
   * or ProofsExhausted when the budget has no hash check left. Synchronous unless a hash is due.
   */
  decide(credentials: Credentials): boolean | Promise<boolean> {
    const map = this.options.map();
    if (!map) return this.unmapped();
    const known = map.known(credentials.apiKey, credentials.apiSecret);
    if (known?.kind === 'unmapped') return this.unmapped();
    if (known) return this.settle(credentials, known.kind === 'accepted' ? known.v2 : undefined);
    return this.hashed(map, credentials);
  }

  /** Whether the map has accepted this pair already (no hashing, no throwing): it is its key's owner. */
  remembersAccepted(credentials: Credentials): boolean {
    return this.options.map()?.known(credentials.apiKey, credentials.apiSecret)?.kind === 'accepted';
  }

  private unmapped(): false {
    if (!this.options.only) return false;
    this.counts.unmappedKey++;
    throw new KeyNotMapped();
  }

  private async hashed(map: CredentialMap, credentials: Credentials): Promise<boolean> {
    const pair = map.pairId(credentials.apiKey, credentials.apiSecret);
    let check = this.checking.get(pair);
    if (!check) {
      check = this.checkOnce(map, credentials).finally(() => this.checking.delete(pair));
      this.checking.set(pair, check);
    }
    const verdict = await check;
    if (verdict.kind === 'unmapped') return this.unmapped(); // reloaded meanwhile without the key
    return this.settle(credentials, verdict.kind === 'accepted' ? verdict.v2 : undefined);
  }

  /**
   * A pair this process has not checked: found among the remembered pairs (no budget, no hashing),
   * else hashed under the budget, and remembered there when it matched.
   */
  private async checkOnce(map: CredentialMap, credentials: Credentials): Promise<Verdict> {
    const { apiKey, apiSecret } = credentials;
    const entry = map.entryOf(apiKey);
    const { proven } = this.options;
    if (proven && entry) {
      const found = await proven.find(apiKey, candidatesOf(entry, apiSecret, (this.options.now ?? Date.now)()));
      if (found) {
        this.checks.remembered++;
        map.remember(apiKey, apiSecret, found.untilMs);
        return { kind: 'accepted', v2: map.identityOf(apiKey)!, untilMs: found.untilMs };
      }
    }
    if (this.options.budget) {
      const taken = this.options.budget.take(apiKey);
      const admission = taken instanceof Promise ? await taken : taken;
      if (!admission.allowed) {
        this.checks.overBudget++;
        throw new ProofsExhausted(admission.retryAfterMs);
      }
    }
    this.checks.hashed++;
    const verdict = await map.verify(apiKey, apiSecret);
    // Awaited: a restart right after the owner's first call must find it remembered.
    if (verdict.kind === 'accepted' && proven && entry) await proven.remember(apiKey, verifierOf(entry, apiSecret, verdict.untilMs));
    return verdict;
  }

  private settle(credentials: Credentials, v2: Credentials['v2']): true {
    if (!v2) {
      this.counts.wrongSecret++;
      throw new SecretRefused();
    }
    credentials.v2 = v2;
    return true;
  }
}
