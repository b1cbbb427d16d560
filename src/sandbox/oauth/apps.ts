import { timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { apiCredential } from '../ids.js';

/**
 * Server-to-server OAuth apps and the access tokens they were given. An app belongs to one account
 * and trades its client id and secret for a bearer token that acts as that account, for an hour.
 */

/** The name of the app each start makes for the master account (its OAuth app in the banner). */
export const START_APP_NAME = 'Sandbox server-to-server app';

export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  accountId: string;
  name: string;
  createdAt: string;
  /**
   * The scopes chosen when the app was made (granular, classic, or both): its tokens may call only
   * the operations one of them covers (src/sandbox/scopes.ts). Absent: every operation, as the
   * master app and an app made without a choice have always had.
   */
  scopes?: readonly string[];
}

export interface IssuedToken {
  accessToken: string;
  accountId: string;
  clientId: string;
  expiresAtMs: number;
  /** Its app's scopes when it was issued; absent for an app of full access. */
  scopes?: readonly string[];
}

/** The service's token life, as its token endpoint answers it (`expires_in`). */
export const ACCESS_TOKEN_LIFE_SECONDS = 3599;

/**
 * Tokens kept at once: each is valid for an hour and a client may ask for one per call, so the
 * oldest are forgotten first (an app that asked for more than this within the hour sees its oldest
 * tokens refused as invalid, which a real client handles by asking again).
 */
const MAX_LIVE_TOKENS = 50_000;

export class OAuthApps {
  private readonly apps = new Map<string, OAuthApp>();
  private readonly tokens = new LRUCache<string, IssuedToken>({ max: MAX_LIVE_TOKENS });

  add(input: {
    accountId: string;
    name: string;
    createdAt: string;
    clientId?: string;
    clientSecret?: string;
    scopes?: readonly string[];
  }): OAuthApp {
    const app: OAuthApp = {
      clientId: input.clientId ?? apiCredential(16),
      clientSecret: input.clientSecret ?? apiCredential(24),
      accountId: input.accountId,
      name: input.name,
      createdAt: input.createdAt,
      ...(input.scopes ? { scopes: [...input.scopes] } : {}),
    };
    if (this.apps.has(app.clientId)) throw new Error(`An OAuth app with client id ${app.clientId} exists already.`);
    this.apps.set(app.clientId, app);
    return app;
  }

  /** The account of app {clientId}, if there is such an app. */
  accountOf(clientId: string): string | undefined {
    return this.apps.get(clientId)?.accountId;
  }

  ofAccount(accountId: string): OAuthApp[] {
    return [...this.apps.values()].filter((app) => app.accountId === accountId);
  }

  /** The app whose id and secret these are, compared in constant time; undefined for any mismatch. */
  authenticate(clientId: string, clientSecret: string): OAuthApp | undefined {
    const app = this.apps.get(clientId);
    if (!app) return undefined;
    const given = Buffer.from(clientSecret);
    const expected = Buffer.from(app.clientSecret);
    return given.length === expected.length && timingSafeEqual(given, expected) ? app : undefined;
  }

  issue(app: OAuthApp, nowMs: number): IssuedToken {
    const token: IssuedToken = {
      accessToken: apiCredential(48),
      accountId: app.accountId,
      clientId: app.clientId,
      expiresAtMs: nowMs + ACCESS_TOKEN_LIFE_SECONDS * 1000,
      ...(app.scopes ? { scopes: app.scopes } : {}),
    };
    this.tokens.set(token.accessToken, token);
    return token;
  }

  /** The token issued under this string, expired or not; undefined when none was (or it was forgotten). */
  tokenOf(accessToken: string): IssuedToken | undefined {
    return this.tokens.get(accessToken);
  }

  /** Every token of an app ends now (its secret was rotated, or a test says so). */
  revokeTokensOf(clientId: string): number {
    let revoked = 0;
    for (const [key, token] of this.tokens.entries()) {
      if (token.clientId === clientId) {
        this.tokens.delete(key);
        revoked++;
      }
    }
    return revoked;
  }
}
