import { isoSeconds } from '../clock.js';
import { apiCredential } from '../ids.js';
import type { Account } from '../model/account.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';

/**
 * The user tokens of GET /users/{userId}/token and the deprecated zpk check (GET /users/zpk).
 * A zpk lives two hours (the v1 reference's check answers `expire_in: 7187`); asking for one
 * after it expired issues a new one, and the old value is then unknown to the check.
 */

export const ZPK_LIFETIME_SECONDS = 2 * 60 * 60;

export const zpkExpiry = (issuedAt: Date) => isoSeconds(new Date(issuedAt.getTime() + ZPK_LIFETIME_SECONDS * 1000));

/** Seconds until the user's zpk expires; 0 once it has. */
export function zpkExpiresIn(state: SandboxState, user: User): number {
  const left = Date.parse(user.tokens.zpk_expires_at) - state.now().getTime();
  return Math.max(0, Math.floor(left / 1000));
}

export type TokenType = 'token' | 'zpk' | 'zak' | 'onbehalf';

/**
 * The token of `type` for the user, renewing an expired zpk first. `onbehalf`: what a Meeting SDK
 * page needs since 2026-03-02 to join a meeting outside its app's account, made on first request.
 */
export function userToken(state: SandboxState, user: User, type: TokenType): string {
  if (type === 'zpk' && zpkExpiresIn(state, user) === 0) {
    user.tokens.zpk = apiCredential(48);
    user.tokens.zpk_expires_at = zpkExpiry(state.now());
  }
  if (type === 'onbehalf') return (user.tokens.onbehalf ??= apiCredential(48));
  return user.tokens[type];
}

/**
 * Today's answer to `type=token` (the route's default) for an account not on the service's
 * allowlist: a 200 whose text says the token is gone (spec/reference/today/users.json, the route's
 * 200). Where the text stands is not documented; the sandbox puts it where the token stood, the
 * harder case for a client that still asks (docs/live-evidence.md, "The user token today").
 */
export const TOKEN_NO_LONGER_SUPPORTED = 'Token is no longer supported. Please use ZAK token instead.';

/** What GET /users/{userId}/token answers `account` for `type`: the token, or today's refusal of the deprecated one. */
export function tokenAnswer(state: SandboxState, account: Account, user: User, type: TokenType): string {
  if (type === 'token' && account.legacyTokenAllowlisted !== true) return TOKEN_NO_LONGER_SUPPORTED;
  return userToken(state, user, type);
}

/** The user an on-behalf token was given for, if any. */
export function userWithOnBehalfToken(state: SandboxState, token: string): User | undefined {
  for (const user of state.users.values()) if (user.tokens.onbehalf === token) return user;
  return undefined;
}

export function userWithZpk(state: SandboxState, zpk: string): User | undefined {
  for (const user of state.users.values()) if (user.tokens.zpk === zpk) return user;
  return undefined;
}
