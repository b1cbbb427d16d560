import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { V2Target } from '../v2-contract/v2-route.js';
import type { Credentials } from './credentials.js';
import { notSentAfter, unanswered, V2Error, type UpstreamUnavailable } from './errors.js';
import { Failure } from '../shared/failure.js';
import { retryAfterSeconds } from '../shared/retry-after.js';

/**
 * A pair's proof: a hash of its api_key and api_secret, the key under which the caches that must
 * tell pairs apart (proven pairs, shared GETs, minted JWTs) hold them, so that no secret is kept
 * as text. Made once per credentials object and kept on it: a v1 call asks three times.
 */
export function pairProofOf(credentials: Credentials): string {
  return (credentials.proof ??= hash('sha256', `${credentials.apiKey}\n${credentials.apiSecret}`, 'base64'));
}

/** Whether v2 may be asked to prove one more pair now: per key and across keys (src/ratelimit/proof-budget.ts). */
export interface ProofBudget {
  take(apiKey: string): ProofAdmission | Promise<ProofAdmission>;
}

export interface ProofAdmission {
  allowed: boolean;
  /** When refused: when a proof is worth asking for again (ms). */
  retryAfterMs: number;
}

/**
 * Too many unproven secrets lately, for this api_key or for all: nothing was sent. Answered as
 * v1's rate-limit error (mappings/errors.ts); the key's own limits are untouched.
 */
export class ProofsExhausted extends Failure {
  override readonly name = 'ProofsExhausted';
  readonly kind = 'proofs-exhausted';
  constructor(readonly retryAfterMs: number) {
    super('Too many api_secrets v2 has not accepted lately were tried; nothing was sent.');
  }

  override v1Headers(): Record<string, string> {
    return { 'Retry-After': String(retryAfterSeconds(this.retryAfterMs)) };
  }
}

export interface PairProverOptions {
  /** None: every unproven pair may be sent (v2 limits off). */
  budget?: ProofBudget;
  /**
   * Charges a call v2 accepted to its key's own outbound buckets: a proof is sent without the
   * key's tokens (a wrong secret must spend none of them), but v2 counts an accepted one.
   */
  charge?: (credentials: Credentials, target: V2Target) => void;
  /** Proven pairs kept (least recently used forgotten first). */
  maxPairs?: number;
  /** A proven pair not used for this long is proven again by its next call (ms). */
  provenTtlMs?: number;
  /** Milliseconds, for the proven pairs' expiry; injectable so unit tests can make time pass. */
  now?: () => number;
}

/**
 * What a proof showed: v2 accepted the pair (any answer but 401), refused it (401, with that
 * error), nothing (the call failed otherwise), or nothing in time (the service held it unanswered).
 */
type Outcome =
  { kind: 'accepted' } | { kind: 'refused'; error: V2Error } | { kind: 'unknown' } | { kind: 'unanswered'; error: UpstreamUnavailable };

/**
 * The one place a pair is proven. A pair v2 accepted lately is its key's owner: limited in its
 * key's buckets and sent at once. Any other pair is proven by its first v2 call: admitted by the
 * proof budget (per key and in all, never the key's own limits), sent without the key's outbound
 * tokens, and charged to them once v2 has accepted it. Proofs of one pair are shared: while one is
 * in flight, the pair's other calls wait for its outcome instead of asking v2 again.
 */
export class PairProver {
  private readonly proven: LRUCache<string, true>;
  private readonly proving = new Map<string, Promise<Outcome>>();

  constructor(private readonly options: PairProverOptions = {}) {
    // Kept as long as the pair is used: an owner calling steadily is never put through the proof
    // budget again (a revoked secret is forgotten at its first 401, see refused()).
    // lru-cache reads its clock once per `ttlResolution` ms and sets a timer to read it again:
    // at its default of 1 ms, a gateway asked every call set about one timer a millisecond (most
    // of the timers' own cost in a call's profile). A pair's age to a three-hundredth of its time
    // to live (a second of five minutes) is all the proof needs.
    const ttl = options.provenTtlMs ?? 5 * 60_000;
    this.proven = new LRUCache({
      max: options.maxPairs ?? 10_000,
      ttl,
      updateAgeOnHas: true,
      ttlResolution: Math.max(1, Math.floor(ttl / 300)),
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
  }

  /** Whether v2 accepted the pair lately, for a call about to use it with v2 (which keeps it proven). */
  isProven(credentials: Credentials): boolean {
    return this.proven.has(pairProofOf(credentials));
  }

  /** The same, for a use that never reaches v2 itself (a signature): it does not keep the pair proven. */
  wasProvenLately(credentials: Credentials): boolean {
    return this.proven.has(pairProofOf(credentials), { updateAgeOnHas: false });
  }

  /** v2 answered 401 for the pair: it is its key's owner no more. */
  refused(credentials: Credentials): void {
    this.proven.delete(pairProofOf(credentials));
  }

  /**
   * The pair's first v2 call, to `target`, as its proof. `send(true)`: send it without the
   * key's outbound tokens (it was admitted by the proof budget); `send(false)`: the pair was
   * proven meanwhile, send it as the owner's. A pair refused while this call waited fails with
   * v2's 401, sending nothing. Throws ProofsExhausted when the budget has no proof left.
   */
  async prove<T>(credentials: Credentials, target: V2Target, send: (asProof: boolean) => Promise<T>): Promise<T> {
    const proof = pairProofOf(credentials);
    for (let pending = this.proving.get(proof); pending; pending = this.proving.get(proof)) {
      const outcome = await pending;
      if (outcome.kind === 'refused') throw outcome.error;
      // The calls that waited a whole timeout for it are not sent: each would only wait as long again.
      if (outcome.kind === 'unanswered') throw notSentAfter(outcome.error);
      if (outcome.kind === 'accepted') break;
    }
    if (this.proven.has(proof)) return send(false);
    // Registered before anything is awaited: the pair's next call must find this proof in flight.
    const sent = this.admit(credentials.apiKey).then(() => send(true));
    const outcome = sent.then(
      (): Outcome => ({ kind: 'accepted' }),
      (error: unknown): Outcome => outcomeOf(error),
    );
    this.proving.set(proof, outcome);
    void outcome.then((o) => this.settle(credentials, proof, target, o, outcome));
    return sent;
  }

  private async admit(apiKey: string): Promise<void> {
    if (!this.options.budget) return;
    const taken = this.options.budget.take(apiKey);
    const admission = taken instanceof Promise ? await taken : taken;
    if (!admission.allowed) throw new ProofsExhausted(admission.retryAfterMs);
  }

  private settle(credentials: Credentials, proof: string, target: V2Target, outcome: Outcome, pending: Promise<Outcome>): void {
    if (this.proving.get(proof) === pending) this.proving.delete(proof);
    if (outcome.kind === 'accepted') {
      this.proven.set(proof, true);
      this.options.charge?.(credentials, target);
    } else if (outcome.kind === 'refused') {
      this.proven.delete(proof);
    }
  }
}

function outcomeOf(error: unknown): Outcome {
  if (unanswered(error)) return { kind: 'unanswered', error };
  if (!(error instanceof V2Error)) return { kind: 'unknown' };
  return error.status === 401 ? { kind: 'refused', error } : { kind: 'accepted' };
}
