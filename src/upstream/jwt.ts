import type { Credentials } from './credentials.js';
import { SignJWT } from 'jose';
import { pairProofOf } from './pair-proof.js';
import { LRUCache } from 'lru-cache';
import type { Grant } from './auth/oauth-tokens.js';

/**
 * Mints the v2 JWT from the caller's own v1 key and secret (v1gate stores no credentials):
 * HS256, `iss` = api_key, a short `exp`. A token is reused for part of its life so that a busy key
 * does not pay one HMAC per call; the cache key is a hash of key AND secret, so a request with a
 * wrong secret can never pick up a token minted from the right one.
 */
export interface TokenMinterOptions {
  /** Lifetime written into `exp`. */
  ttlSeconds: number;
  /** A cached token is reused until this many seconds before it expires. */
  renewBeforeSeconds: number;
  maxCachedKeys: number;
  now?: () => number;
}

/**
 * A v2 JWT as the v2 spec defines it: HS256, `typ` JWT, `iss` = the API key, `exp` (epoch
 * seconds), signed with the API secret. The one place v1gate, its tests, scripts and benchmarks
 * sign one.
 */
export function signV2Token(apiKey: string, apiSecret: string, expSeconds: number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(apiKey)
    .setExpirationTime(expSeconds)
    .sign(new TextEncoder().encode(apiSecret));
}

export class TokenMinter {
  private readonly cache: LRUCache<string, Minted>;
  private readonly now: () => number;

  constructor(private readonly options: TokenMinterOptions) {
    this.cache = new LRUCache({ max: options.maxCachedKeys });
    this.now = options.now ?? Date.now;
  }

  async tokenFor(credentials: Credentials): Promise<string> {
    return (await this.grantFor(credentials)).token;
  }

  /** The pair's token as a grant (no region: a JWT's calls go where v1gate was pointed); a cached one at once, not as a promise. */
  grantFor(credentials: Credentials): Grant | Promise<Grant> {
    const cacheKey = pairProofOf(credentials);
    const nowSeconds = Math.floor(this.now() / 1000);
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expSeconds - nowSeconds > this.options.renewBeforeSeconds) return cached.grant;
    return this.mint(credentials, cacheKey, nowSeconds);
  }

  private async mint(credentials: Credentials, cacheKey: string, nowSeconds: number): Promise<Grant> {
    const expSeconds = nowSeconds + this.options.ttlSeconds;
    const token = await signV2Token(credentials.apiKey, credentials.apiSecret, expSeconds);
    const grant: Grant = { token, apiUrl: undefined, authorization: `Bearer ${token}` };
    this.cache.set(cacheKey, { grant, expSeconds });
    return grant;
  }
}

interface Minted {
  grant: Grant;
  expSeconds: number;
}
