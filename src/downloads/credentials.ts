import { nowOrLater } from '../shared/now-or-later.js';
import type { Credentials } from '../upstream/credentials.js';
import type { V2Identity } from '../upstream/auth/v2-identity.js';

/**
 * The credentials a link's api_key fetches its file with, found without the v1 secret (a link
 * carries none): the v2 app the credential map names for the key, or, over a sandbox, the pair of
 * the sandbox account the key is (which stands for the account's OAuth app). `sandboxSecretOf`
 * reads the account wherever this process reaches the sandbox: its own, or the primary's account
 * list from a cluster worker, so a link works on whichever worker its download lands. A key that
 * is neither any more has none, and its links are refused.
 */
export function downloadCredentialsOf(
  identityOf: (apiKey: string) => V2Identity | undefined,
  sandboxSecretOf: ((apiKey: string) => string | undefined | Promise<string | undefined>) | undefined,
): (apiKey: string) => Credentials | undefined | Promise<Credentials | undefined> {
  const pairOf = (apiKey: string, apiSecret: string | undefined) => (apiSecret === undefined ? undefined : { apiKey, apiSecret });
  return (apiKey) => {
    const v2 = identityOf(apiKey);
    // The secret is never read for a mapped key: the authorizer acts as `v2`.
    if (v2) return { apiKey, apiSecret: '', v2 };
    return nowOrLater(sandboxSecretOf?.(apiKey), (secret) => pairOf(apiKey, secret));
  };
}
