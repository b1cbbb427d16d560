import { inboundOwnerOf } from '../ratelimit/inbound-limiter.js';
import { Refusal } from '../translators/kit/failures.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import type { Admissible, Admission } from './v1-call.js';

/** Inbound v1 limits (src/ratelimit provides the real one), by bucket owner (inboundOwnerOf). */
export interface InboundGate {
  check(owner: string, v1Path: string): Promise<{ allowed: boolean; headers: Record<string, string> }>;
}

/**
 * The third step, the facade's and the SDK signer's: the v1 inbound limit, in the caller's buckets: its key's when its pair is
 * proven, its pair's own until then. A refused call reaches v2 not at all; an admitted one
 * carries the bucket's X-RateLimit-* headers on its answer. With no limit, every call is admitted
 * at once. It hands on what came before it, admitted.
 */
export function admit<A extends Admissible>(authenticated: A, inbound: InboundGate | undefined): (A & Admission) | Promise<A & Admission> {
  if (!inbound) return admitted(authenticated);
  // An unproven pair is limited in buckets of its own: anyone who knows an api_key (it is public in
  // every browser-SDK page) can flood it with wrong secrets without taking a token from its owner.
  const { credentials, proven, endpointPath, call } = authenticated;
  const owner = inboundOwnerOf(credentials.apiKey, proven ? undefined : pairProofOf(credentials));
  return inbound.check(owner, endpointPath).then((decision) => {
    Object.assign(call.headers, decision.headers);
    if (!decision.allowed) throw new Refusal('inbound-limited', undefined, decision.headers);
    return admitted(authenticated);
  });
}

/** The same object handed on, admitted: written onto it, not copied (as authenticate.ts does). */
function admitted<A extends Admissible>(authenticated: A): A & Admission {
  const admission = authenticated as A & { admitted: true };
  admission.admitted = true;
  return admission;
}
