import type { GatewayConfig } from '../config.js';
import { isLoopbackHost } from '../shared/loopback.js';
import type { ConfigProblem } from '../shared/env.js';

/**
 * Today's v2 takes no JWT: the service retired JWT apps in September 2023 and answers every JWT
 * 401 "Invalid access token." (docs/live-evidence.md). A gateway over such a v2 in which a key would
 * sign a JWT — a key the credential map sends to a JWT app, or, without V2_CREDENTIALS_ONLY, any
 * key the map does not name — starts, passes its probes and fails that key's every call. So check
 * and start refuse it, naming the keys and the fix. A v2 on this machine is exempt: the embedded
 * or a local sandbox finds each of its pairs' OAuth app itself, and a team may run an old snapshot
 * there that still takes JWTs (SANDBOX_V2_AUTH=legacy).
 */
export function jwtSigningProblems(config: GatewayConfig): ConfigProblem[] {
  if (config.v2BaseUrl === undefined || isLoopbackHost(new URL(config.v2BaseUrl).hostname.replace(/^\[|\]$/g, ''))) return [];
  const jwtKeys = config.credentials.entries.filter((entry) => entry.v2.kind === 'jwt').map((entry) => entry.api_key);
  const problems: ConfigProblem[] = [];
  if (jwtKeys.length > 0) {
    problems.push({
      variable: 'V2_CREDENTIALS_FILE',
      message:
        `${jwtKeys.length} key(s) mapped to a JWT app, which today's v2 refuses (${jwtKeys.join(', ')}): ` +
        'map each to a server-to-server OAuth app (npm run credentials -- add --api-key K ... --account-id A --client-id C --client-secret -)',
    });
  }
  if (!config.credentials.only) {
    problems.push({
      variable: 'V2_CREDENTIALS_ONLY',
      message:
        "off, so a key the credential map does not name would sign its own JWT, which today's v2 refuses: " +
        'map every legacy key to an OAuth app in V2_CREDENTIALS_FILE and set V2_CREDENTIALS_ONLY=1',
    });
  }
  return problems;
}
