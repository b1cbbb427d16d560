import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { SandboxError, V2Code } from './errors.js';
import type { Account } from './model/account.js';
import type { SandboxState } from './state.js';

/**
 * v2 authentication. `today` (the default) is the service as it answers now: only an access token
 * the OAuth token endpoint issued (oauth/), in `Authorization: Bearer`, acting as its app's account
 * until it expires. A JWT (JWT apps were retired in September 2023) is answered 401
 * `{"code":124,"message":"Invalid access token."}` and a token in `?access_token=` (refused since
 * 14 February 2023) 401 code 124 "Invalid access token, this access token is not supported as query
 * parameter string.", as the service answers them (docs/live-evidence.md). `legacy` is the service of the old v2
 * reference: a token in the header or the query, and the spec's HS256 JWT too, whose `iss` is an
 * account's API key, signed with that account's API secret, with an `exp` in the future.
 */
export type V2AuthMode = 'today' | 'legacy';

const invalidToken = (message = 'Invalid access token.') => new SandboxError(401, V2Code.invalidAccessToken, message);

/** The service's text for a token sent as `?access_token=` (a public capture, docs/live-evidence.md). */
export const QUERY_TOKEN_REFUSED = 'Invalid access token, this access token is not supported as query parameter string.';

/** A request's bearer token as `mode` reads it. A query token today is refused here, valid or not, as the service refuses it. */
export function tokenFrom(
  authorization: string | undefined,
  accessTokenQuery: string | undefined,
  mode: V2AuthMode = 'today',
): string | undefined {
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  if (!accessTokenQuery) return undefined;
  if (mode === 'legacy') return accessTokenQuery;
  throw invalidToken(QUERY_TOKEN_REFUSED);
}

export class TokenVerifier {
  /**
   * Verified tokens, until they expire: clients that reuse a token for its short life (as v1gate
   * does) cost one HMAC per token, not per request.
   */
  private readonly verified = new LRUCache<string, { accountId: string; expMs: number }>({ max: 10_000 });
  private readonly keys = new WeakMap<Account, Uint8Array>();

  constructor(
    private readonly state: SandboxState,
    private readonly mode: V2AuthMode = 'today',
  ) {}

  async verify(token: string | undefined): Promise<Account> {
    if (!token) throw invalidToken('Access token is missing.');
    const nowMs = this.state.now().getTime();
    const issued = this.state.oauthApps.tokenOf(token);
    if (issued) {
      if (issued.expiresAtMs <= nowMs) throw invalidToken('Access token is expired.');
      const account = this.state.accounts.get(issued.accountId);
      if (account) return account;
      throw invalidToken();
    }
    // Today's service knows no JWT: whatever is not an access token it issued is invalid.
    if (this.mode === 'today') throw invalidToken();
    const cached = this.verified.get(token);
    if (cached) {
      const account = this.state.accounts.get(cached.accountId);
      if (cached.expMs <= nowMs) throw invalidToken('Access token is expired.');
      if (account) return account;
    }
    let iss: string | undefined;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      throw invalidToken();
    }
    const account = iss ? this.state.accountsByKey.get(iss) : undefined;
    if (!account) throw invalidToken();
    try {
      const { payload } = await jwtVerify(token, this.keyOf(account), {
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
        currentDate: this.state.now(),
      });
      this.verified.set(token, { accountId: account.id, expMs: (payload.exp ?? 0) * 1000 });
      return account;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw invalidToken('Access token is expired.');
      throw invalidToken();
    }
  }

  private keyOf(account: Account): Uint8Array {
    let key = this.keys.get(account);
    if (!key) {
      key = new TextEncoder().encode(account.apiSecret);
      this.keys.set(account, key);
    }
    return key;
  }
}
