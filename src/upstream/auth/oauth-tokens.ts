import { createHash } from 'node:crypto';
import { request } from 'undici';
import { z } from 'zod';
import { basicAuthorization } from '../../shared/basic-authorization.js';
import { Failure, type FailureKind } from '../../shared/failure.js';
import { parseRetryAfter, retryAfterSeconds } from '../../shared/retry-after.js';
import { textAtMost } from '../../shared/text-at-most.js';
import type { V2Identity } from './v2-identity.js';

/**
 * Server-to-server OAuth toward v2: an app's client id and secret are traded for an access token
 * (`POST {token_url}?grant_type=account_credentials&account_id=...`, HTTP Basic), kept until
 * shortly before it expires, and fetched once for all the calls that need it at the same moment
 * (single flight). Tokens live only in memory: never logged, recorded or written anywhere.
 */

export type OAuthApp = Extract<V2Identity, { kind: 'oauth' }>;

export type TokenOutcome = 'issued' | 'refused' | 'rate_limited' | 'unavailable';

/** The token endpoint did not give a token: refused the app (its credentials or account), limited it, or failed. */
export class OAuthTokenError extends Failure {
  override readonly name = 'OAuthTokenError';
  constructor(
    readonly outcome: Exclude<TokenOutcome, 'issued'>,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  get kind(): FailureKind {
    return TOKEN_KINDS[this.outcome];
  }

  override v1Headers(): Record<string, string> {
    return this.retryAfterMs === undefined ? {} : { 'Retry-After': String(retryAfterSeconds(this.retryAfterMs)) };
  }

  /** No token, no v2 call. */
  override ownMessage(): string {
    return `${this.message} Nothing was changed.`;
  }
}

const TOKEN_KINDS: Record<OAuthTokenError['outcome'], FailureKind> = {
  refused: 'v2-token-refused',
  rate_limited: 'v2-token-limited',
  unavailable: 'v2-token-unavailable',
};

export interface OAuthTokensOptions {
  /** Where apps without a `token_url` ask: the v2 service's origin + `/oauth/token` (the sandbox's). */
  defaultTokenUrl: () => string;
  /** A token is replaced this long before it expires, so no call starts with one about to end. */
  refreshMarginMs?: number;
  /** How long the token endpoint may take. */
  timeoutMs: number;
  now?: () => number;
}

/**
 * Five minutes: longer than any one v1 call may last (its outbound wait and v2 timeouts together are
 * well under a minute), and a margin for clocks that disagree; against a token life of an hour it
 * costs one request in twelve more than the minimum.
 */
export const DEFAULT_REFRESH_MARGIN_MS = 5 * 60_000;

/** The most of a token endpoint's answer read: a token answer is about a kilobyte; a larger one is none. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  // The API host of the account's data region (auth/api-url.ts); a token answer without one is still a token.
  api_url: z.string().optional().catch(undefined),
  // The app's scopes, space-separated (docs/live-evidence.md, "Granular scopes"); none: not judged.
  scope: z.string().optional().catch(undefined),
});
const errorAnswer = z.object({ reason: z.string().optional(), error: z.string().optional() }).loose();

/** An access token, and the `api_url` its answer named (undefined: none). */
export interface Grant {
  readonly token: string;
  readonly apiUrl: string | undefined;
  /** `Bearer <token>`: the Authorization header of each call made with it, made once per token. */
  readonly authorization: string;
  /** The scopes the token answer listed (an OAuth app's); undefined when it listed none (a JWT). */
  readonly scopes?: readonly string[];
}

interface Held extends Grant {
  /** When the token is replaced: its expiry less the margin. */
  renewAtMs: number;
}

export class OAuthTokens {
  private readonly held = new Map<string, Held>();
  private readonly inFlight = new Map<string, Promise<Held>>();
  /** Each app object's key, hashed once: an app is asked for a token on every call it makes. */
  private readonly keys = new WeakMap<OAuthApp, string>();
  private readonly now: () => number;
  private readonly marginMs: number;
  private readonly requests: Record<TokenOutcome, number> = { issued: 0, refused: 0, rate_limited: 0, unavailable: 0 };

  constructor(private readonly options: OAuthTokensOptions) {
    this.now = options.now ?? Date.now;
    this.marginMs = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
  }

  /** Token requests made so far, by outcome (for /metrics). */
  stats(): { requests: Readonly<Record<TokenOutcome, number>> } {
    return { requests: { ...this.requests } };
  }

  /** A valid access token for the app: the one held, or a new one fetched once for every caller waiting. */
  async tokenFor(app: OAuthApp): Promise<string> {
    return (await this.grantFor(app)).token;
  }

  /**
   * The same, with the token answer's `api_url`: where the account's calls belong (api-url.ts). A
   * token held is answered at once, not as a promise: most calls find one.
   */
  grantFor(app: OAuthApp): Grant | Promise<Grant> {
    const key = this.keyOf(app);
    const held = this.held.get(key);
    if (held && held.renewAtMs > this.now()) return held;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchToken(app).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The token held for the app and still good, if any, without asking for one: what the status page reads. */
  heldFor(app: OAuthApp): Grant | undefined {
    const held = this.held.get(this.keyOf(app));
    return held && held.renewAtMs > this.now() ? held : undefined;
  }

  /**
   * v2 refused `token` (401): it was revoked or ended early. It is forgotten, unless a newer one has
   * replaced it already (many calls may see the same 401: the first forgets, the rest reuse the new one).
   */
  refused(app: OAuthApp, token: string): void {
    const key = this.keyOf(app);
    if (this.held.get(key)?.token === token) this.held.delete(key);
  }

  /** The app's identity in the cache: a hash, so a changed secret (a reloaded file) is another app, and no secret is kept as a key. */
  private keyOf(app: OAuthApp): string {
    let key = this.keys.get(app);
    if (key === undefined) {
      key = createHash('sha256')
        .update([app.tokenUrl ?? '', app.accountId, app.clientId, app.clientSecret].join('\0'))
        .digest('base64');
      this.keys.set(app, key);
    }
    return key;
  }

  private async fetchToken(app: OAuthApp): Promise<Held> {
    try {
      const held = await this.ask(app);
      this.held.set(this.keyOf(app), held);
      this.requests.issued++;
      return held;
    } catch (error) {
      const failure =
        error instanceof OAuthTokenError
          ? error
          : new OAuthTokenError('unavailable', `The OAuth token endpoint could not be reached (${describe(error)}).`);
      this.requests[failure.outcome]++;
      throw failure;
    }
  }

  private async ask(app: OAuthApp): Promise<Held> {
    const url = new URL(app.tokenUrl ?? this.options.defaultTokenUrl());
    url.searchParams.set('grant_type', 'account_credentials');
    url.searchParams.set('account_id', app.accountId);
    const askedAtMs = this.now();
    const answer = await request(url, {
      method: 'POST',
      headers: {
        authorization: basicAuthorization(app.clientId, app.clientSecret),
        accept: 'application/json',
      },
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const text = await textAtMost(answer.body, MAX_TOKEN_ANSWER_BYTES);
    if (text === undefined)
      throw new OAuthTokenError(
        'unavailable',
        `The OAuth token endpoint answered more than ${MAX_TOKEN_ANSWER_BYTES} bytes (${answer.statusCode}).`,
      );
    if (answer.statusCode === 200) {
      const parsed = tokenAnswer.safeParse(safeJson(text));
      if (!parsed.success) throw new OAuthTokenError('unavailable', 'The OAuth token endpoint answered 200 without an access token.');
      const lifeMs = parsed.data.expires_in * 1000;
      // A token shorter-lived than the margin is used for half its life rather than never.
      const margin = Math.min(this.marginMs, lifeMs / 2);
      const token = parsed.data.access_token;
      const scopes = parsed.data.scope?.split(/\s+/).filter((scope) => scope.length > 0);
      return {
        token,
        apiUrl: parsed.data.api_url,
        authorization: `Bearer ${token}`,
        renewAtMs: askedAtMs + lifeMs - margin,
        ...(scopes ? { scopes } : {}),
      };
    }
    const reason = reasonOf(text);
    if (answer.statusCode === 429) {
      const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], this.now()) ?? 1_000;
      throw new OAuthTokenError('rate_limited', `The OAuth token endpoint limits this app's token requests${reason}.`, retryAfterMs);
    }
    if (answer.statusCode === 400 || answer.statusCode === 401 || answer.statusCode === 403) {
      throw new OAuthTokenError('refused', `The OAuth token endpoint refused v1gate's app for this key (${answer.statusCode}${reason}).`);
    }
    throw new OAuthTokenError('unavailable', `The OAuth token endpoint failed (${answer.statusCode}${reason}).`);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `: invalid_client, Invalid client_id or client_secret` from an OAuth error body, cut short; '' when there is none. */
function reasonOf(text: string): string {
  const parsed = errorAnswer.safeParse(safeJson(text));
  if (!parsed.success) return '';
  const words = [parsed.data.error, parsed.data.reason].filter(Boolean).join(', ').slice(0, 200);
  return words ? `: ${words}` : '';
}

function describe(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.name;
  return 'error';
}
