import { z } from 'zod';
import { pairProofOf } from '../pair-proof.js';
import { RATE_LIMIT_PLANS } from '../../v2-contract/rate-limit-plans.js';
import { textAtMost } from '../../shared/text-at-most.js';
import type { Credentials } from '../credentials.js';
import type { OAuthApp } from './oauth-tokens.js';

/**
 * A cluster worker's way to the OAuth app of a pair of the embedded sandbox, which runs in the
 * primary: the sandbox's account list at the primary's loopback origin, which shows the secrets to
 * a caller on this machine. An app found is kept (a pair's app does not change while the sandbox
 * runs); a key not listed is looked for again, since its account may have been made since, but the
 * list is read at most once a second and by one request at a time, whatever the callers send.
 * The same serves a gateway over a sandbox of its own machine (`npm run sandbox`, another gateway):
 * an origin whose account list is not there (404, no sandbox) is not asked again.
 */

const listing = z.object({
  accounts: z.array(
    z.object({
      id: z.string(),
      api_key: z.string(),
      // A plan this gateway does not know is none (OUTBOUND_DEFAULT_PLAN), and the rest of the list still counts.
      rate_limit_plan: z.enum(RATE_LIMIT_PLANS).optional().catch(undefined),
      api_secret: z.string().optional(),
      oauth_apps: z.array(z.object({ client_id: z.string(), client_secret: z.string().optional() })),
    }),
  ),
});

/** How often the account list is read again at most: a flood of unknown keys costs one read a second, not one each. */
const RELIST_AFTER_MS = 1000;

/**
 * The most of an account list read: 8 MiB (about twenty thousand accounts). Whatever answers at
 * that origin, a larger answer is no sandbox's and is not held in memory.
 */
const MAX_LIST_BYTES = 8 * 1024 * 1024;

interface Kept {
  secret: string;
  app: OAuthApp;
  /** The account's pair's proof (pair-proof.ts), made at its first comparison. */
  proof?: string;
}
type Listed = Map<string, Kept>;

export function sandboxAccountsAt(origin: string, timeoutMs: number): SandboxAccountList['appOf'] {
  return sandboxAccountListAt(origin, timeoutMs).appOf;
}

/** The account list at `origin`, read as `sandboxAccountsAt` says, asked two ways. */
export interface SandboxAccountList {
  /** The OAuth app of a pair of one of the accounts, its secret matched; undefined for any other pair. At once when no list must be read. */
  appOf: (pair: Credentials) => OAuthApp | undefined | Promise<OAuthApp | undefined>;
  /** The secret of the account whose api_key this is, for a caller that holds none (a download link); undefined: no account. */
  secretOf: (apiKey: string) => Promise<string | undefined>;
}

export function sandboxAccountListAt(origin: string, timeoutMs: number): SandboxAccountList {
  let listed: Listed = new Map();
  let listedAt = -Infinity;
  let reading: Promise<void> | undefined;
  let noSandbox = false;
  const relist = async (): Promise<void> => {
    const answer = await fetch(`${origin}/sandbox/accounts`, { signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
    listedAt = Date.now();
    if (answer?.status === 404) noSandbox = true;
    const text = answer?.ok ? await textAtMost(answer.body, MAX_LIST_BYTES).catch(() => undefined) : undefined;
    if (answer && !answer.bodyUsed) await answer.body?.cancel().catch(() => undefined);
    const parsed = text === undefined ? undefined : listing.safeParse(parseJson(text));
    // Anything but a sandbox's account list (another service on that origin) is no account at all.
    if (parsed?.success) listed = appsOf(parsed.data);
  };
  /** The key's account: at once when it is listed, or when the list may not be read again yet (most calls). */
  const keptOf = (apiKey: string): Kept | undefined | Promise<Kept | undefined> => {
    const kept = listed.get(apiKey);
    if (kept || noSandbox || Date.now() - listedAt < RELIST_AFTER_MS) return kept;
    reading ??= relist().finally(() => (reading = undefined));
    return reading.then(() => listed.get(apiKey));
  };
  return {
    appOf: (pair) => {
      // No closure where the account is at hand (most calls): nowOrLater would make one per call.
      const kept = keptOf(pair.apiKey);
      return kept instanceof Promise ? kept.then((found) => appOfKept(pair, found)) : appOfKept(pair, kept);
    },
    secretOf: async (apiKey) => (await keptOf(apiKey))?.secret,
  };
}

/**
 * The account's app when the pair's secret is the account's. Compared as the two pairs' proofs (the
 * same api_key, so the same proof only for the same secret): the pair's is made once per v1 call
 * anyway, and the account's once per list read, so no comparison allocates (two Buffers and a
 * timingSafeEqual a call before); a proof, a SHA-256 digest, tells a guess nothing by the time its
 * comparison takes.
 */
function appOfKept(pair: Credentials, kept: Kept | undefined): OAuthApp | undefined {
  if (!kept) return undefined;
  kept.proof ??= pairProofOf({ apiKey: pair.apiKey, apiSecret: kept.secret });
  return pairProofOf(pair) === kept.proof ? kept.app : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Each account's pair and the first OAuth app whose secret the list shows, with the account's plan when it has one set. */
function appsOf(data: z.output<typeof listing>): Listed {
  const apps: Listed = new Map();
  for (const account of data.accounts) {
    const client = account.oauth_apps.find((a) => a.client_secret !== undefined);
    if (!account.api_secret || !client?.client_secret) continue;
    apps.set(account.api_key, {
      secret: account.api_secret,
      app: {
        kind: 'oauth',
        accountId: account.id,
        clientId: client.client_id,
        clientSecret: client.client_secret,
        ...(account.rate_limit_plan ? { plan: account.rate_limit_plan } : {}),
      },
    });
  }
  return apps;
}
