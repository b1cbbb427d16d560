import { Refusal } from '../translators/kit/failures.js';
import type { V1Call } from './v1-call.js';

/** Inbound v1 limits (src/ratelimit provides the real one). */
export interface InboundGate {
  check(apiKey: string, v1Path: string): Promise<{ allowed: boolean; headers: Record<string, string> }>;
}

/**
 * The third step: the v1 inbound limit, in the caller's bucket. A refused call reaches v2 not at
 * all; an admitted one carries the bucket's X-RateLimit-* headers on its answer.
 */
export async function admit(call: V1Call, inbound: InboundGate): Promise<void> {
  const { apiKey } = call.credentials!;
  // A pair v2 has not accepted lately is limited in a bucket of its own: anyone who knows an
  // api_key (it is public in every browser-SDK page) can flood it with wrong secrets without
  // taking a single token from the key's real callers.
  const decision = await inbound.check(call.proven ? apiKey : `${apiKey}\u0000unverified`, call.endpointPath!);
  Object.assign(call.headers, decision.headers);
  if (!decision.allowed) throw new Refusal('inbound-limited', undefined, decision.headers);
}
