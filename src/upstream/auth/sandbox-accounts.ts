import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Credentials } from '../credentials.js';
import type { OAuthApp } from './oauth-tokens.js';

/**
 * A cluster worker's way to the OAuth app of a pair of the embedded sandbox, which runs in the
 * primary: the sandbox's account list at the primary's loopback origin, which shows the secrets to
 * a caller on this machine. An app found is kept (a pair's app does not change while the sandbox
 * runs); a pair not found is asked again next time, since its account may have been made since.
 * The same serves a gateway over a sandbox of its own machine (`npm run sandbox`, another gateway):
 * an origin whose account list is not there (404, no sandbox) is not asked again.
 */

const listing = z.object({
  accounts: z.array(
    z.object({
      id: z.string(),
      api_key: z.string(),
      api_secret: z.string().optional(),
      oauth_apps: z.array(z.object({ client_id: z.string(), client_secret: z.string().optional() })),
    }),
  ),
});

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function sandboxAccountsAt(origin: string, timeoutMs: number): (pair: Credentials) => Promise<OAuthApp | undefined> {
  const found = new Map<string, { secret: string; app: OAuthApp }>();
  let noSandbox = false;
  return async (pair) => {
    const kept = found.get(pair.apiKey);
    if (kept) return same(kept.secret, pair.apiSecret) ? kept.app : undefined;
    if (noSandbox) return undefined;
    const answer = await fetch(`${origin}/sandbox/accounts`, { signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
    if (answer?.status === 404) noSandbox = true;
    if (!answer?.ok) return undefined;
    const account = listing.parse(await answer.json()).accounts.find((a) => a.api_key === pair.apiKey);
    const client = account?.oauth_apps.find((a) => a.client_secret !== undefined);
    if (!account?.api_secret || !client?.client_secret) return undefined;
    const app: OAuthApp = { kind: 'oauth', accountId: account.id, clientId: client.client_id, clientSecret: client.client_secret };
    found.set(pair.apiKey, { secret: account.api_secret, app });
    return same(account.api_secret, pair.apiSecret) ? app : undefined;
  };
}
