import type { Credentials } from '../upstream/credentials.js';
import type { V2Identity } from '../upstream/auth/v2-identity.js';

/**
 * The credentials a link's api_key fetches its file with, found without the v1 secret (a link
 * carries none): the v2 app the credential map names for the key, or, over the embedded sandbox,
 * the pair of the sandbox account the key is (which stands for the account's OAuth app). A key that
 * is neither any more has none, and its links are refused.
 */
export function downloadCredentialsOf(
  identityOf: (apiKey: string) => V2Identity | undefined,
  sandboxAccounts: ReadonlyMap<string, { apiSecret: string }> | undefined,
): (apiKey: string) => Credentials | undefined {
  return (apiKey) => {
    const v2 = identityOf(apiKey);
    // The secret is never read for a mapped key: the authorizer acts as `v2`.
    if (v2) return { apiKey, apiSecret: '', v2 };
    const account = sandboxAccounts?.get(apiKey);
    return account ? { apiKey, apiSecret: account.apiSecret } : undefined;
  };
}
