import { Refusal } from '../translators/kit/failures.js';
import type { Credentials } from '../upstream/client.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import type { V1Params } from './params.js';
import type { V1Call } from './v1-call.js';

/** What the authenticate step knows of pairs: whether v2 accepted one lately (by its proof hash). */
export interface PairStanding {
  isProven(proof: string): boolean;
}

/**
 * The second step: who calls. The api_key and api_secret (both required), the key on the
 * allow-list when there is one, and whether v2 has accepted the pair lately: a proven pair is
 * limited and sent as its key's owner; any other is not, until its first v2 call proves it.
 */
export function authenticate(call: V1Call, allowed: ReadonlySet<string> | undefined, pairs: PairStanding): void {
  const credentials = credentialsOf(call.params!, allowed);
  call.credentials = credentials;
  call.proven = pairs.isProven(pairProofOf(credentials));
}

function credentialsOf(params: V1Params, allowed: ReadonlySet<string> | undefined): Credentials {
  const apiKey = typeof params.api_key === 'string' ? params.api_key.trim() : '';
  const apiSecret = typeof params.api_secret === 'string' ? params.api_secret.trim() : '';
  if (!apiKey || !apiSecret) throw new Refusal('missing-credentials');
  if (allowed && !allowed.has(apiKey)) throw new Refusal('key-not-allowed');
  return { apiKey, apiSecret };
}
