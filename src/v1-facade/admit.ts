import { inboundOwnerOf } from '../ratelimit/inbound-limiter.js';
import { Refusal } from '../translators/kit/failures.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import type { V1Call } from './v1-call.js';

/** Inbound v1 limits (src/ratelimit provides the real one), by bucket owner (inboundOwnerOf). */
export interface InboundGate {
  check(owner: string, v1Path: string): Promise<{ allowed: boolean; headers: Record<string, string> }>;
}

/**
 * The third step: the v1 inbound limit, in the caller's buckets: its key's when its pair is
 * proven, its pair's own until then. A refused call reaches v2 not at
 * all; an admitted one carries the bucket's X-RateLimit-* headers on its answer.
 */
export async function admit(call: V1Call, inbound: InboundGate): Promise<void> {
  // An unproven pair is limited in buckets of its own: anyone who knows an api_key (it is public in
  // every browser-SDK page) can flood it with wrong secrets without taking a token from its owner.
  const credentials = call.credentials!;
  const owner = inboundOwnerOf(credentials.apiKey, call.proven ? undefined : pairProofOf(credentials));
  const decision = await inbound.check(owner, call.endpointPath!);
  Object.assign(call.headers, decision.headers);
  if (!decision.allowed) throw new Refusal('inbound-limited', undefined, decision.headers);
}
