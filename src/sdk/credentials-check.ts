import { V2 } from '../v2-contract/v2-routes.js';
import type { Credentials, V2Client } from '../upstream/client.js';
import type { PairProver } from '../upstream/pair-proof.js';
import type { LocalCheck } from '../upstream/auth/local-check.js';

/**
 * Whether the service accepts an api_key/api_secret pair: the signer signs only for pairs v2
 * would accept. An interface so tests and other checks (a credential map) can stand in.
 */
export interface CredentialsCheck {
  /** v2 accepted the pair lately: it is its key's owner, limited in the key's own buckets. */
  isProven(credentials: Credentials): boolean;
  /** Resolves when the pair is good; throws (a V2Error, UpstreamUnavailable, ProofsExhausted) when it is not known to be. */
  check(credentials: Credentials): Promise<void>;
}

/**
 * The credential map's word for the keys it names, as in the facade. For any other key, the
 * prover's word, as the facade's: a pair v2 accepted lately (through the facade or here) is
 * good without a v2 call; any other is proven by one GET /users/me (401 for a bad key or secret),
 * under the proof budget, never with the key's tokens. A signature reaches no v2 call of its own,
 * so it does not keep a pair proven: a revoked secret is asked about again within the proven TTL.
 */
export function v2CredentialsCheck(v2: V2Client, pairs: PairProver, local?: LocalCheck): CredentialsCheck {
  return {
    isProven: (credentials) => pairs.wasProvenLately(credentials) || (local?.remembersAccepted(credentials) ?? false),
    async check(credentials) {
      // A key the credential map names is decided by the map (a wrong secret throws), never by v2.
      if (local && (await local.decide(credentials))) return;
      if (pairs.wasProvenLately(credentials)) return;
      const target = V2.users.get.at('me');
      await pairs.prove(credentials, target, (asProof) =>
        // Proven meanwhile, by another call of the pair: nothing to send.
        asProof ? v2.call(credentials, { target, unmetered: true }) : Promise.resolve(undefined),
      );
    },
  };
}
