import { V2 } from '../shared/v2-routes.js';
import type { Credentials, V2Client } from '../upstream/client.js';

/**
 * Whether the service accepts an api_key/api_secret pair: the signer signs only for keys v2 would
 * accept. An interface so a verified-credentials cache can stand in for the one v2 call; it
 * resolves when the pair is good and throws (a V2Error or UpstreamUnavailable) when it is not.
 */
export interface CredentialsCheck {
  check(credentials: Credentials): Promise<void>;
}

/** One v2 call with a JWT made from the pair: GET /users/me answers 401 for a bad key or secret. */
export function v2CredentialsCheck(v2: V2Client): CredentialsCheck {
  return {
    async check(credentials) {
      await v2.call(credentials, { target: V2.users.get.at('me') });
    },
  };
}
