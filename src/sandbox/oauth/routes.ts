import { Hono, type Context } from 'hono';
import { retryAfterSeconds } from '../../shared/retry-after.js';
import { takeToken, type BucketSpec, type BucketState } from '../../shared/token-bucket.js';
import type { SandboxState } from '../state.js';
import { ACCESS_TOKEN_LIFE_SECONDS } from './apps.js';

/**
 * The token endpoint of server-to-server OAuth, on the sandbox's origin: `POST /oauth/token?
 * grant_type=account_credentials&account_id=...` with the app's client id and secret as HTTP Basic
 * credentials answers `{access_token, token_type: "bearer", expires_in, scope, api_url}`. Errors
 * are OAuth's (RFC 6749 §5.2) with the service's `reason` beside `error`. The grant and the account
 * may also come in a form body, as the RFC allows and some clients send them.
 */

/** What one app may ask for: a burst of ten, then one token a second (a cached token lasts an hour). */
const TOKEN_REQUESTS: BucketSpec = { ratePerSecond: 1, burst: 10 };

export interface OAuthRouteOptions {
  state: SandboxState;
  /** Whether token requests are rate limited (off with the sandbox's other limits). */
  limited: boolean;
}

type OAuthErrorName = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_grant';

function oauthError(c: Context, status: 400 | 401 | 429, error: OAuthErrorName | 'rate_limited', reason: string): Response {
  if (status === 401) c.header('WWW-Authenticate', 'Basic realm="oauth"');
  c.header('Cache-Control', 'no-store');
  return c.json({ reason, error }, status);
}

/** The client id and secret of an `Authorization: Basic` header; undefined when there is none or it is malformed. */
export function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = header && /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

/** The grant's parameters: from the query string, else from a urlencoded body. */
async function grantParams(c: Context): Promise<URLSearchParams> {
  const query = new URL(c.req.url).searchParams;
  if (query.has('grant_type')) return query;
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return query;
  return new URLSearchParams(await c.req.text());
}

export function oauthRoutes(options: OAuthRouteOptions): Hono {
  const { state } = options;
  const apps = state.oauthApps;
  const buckets = new Map<string, BucketState>();
  const app = new Hono();

  app.post('/token', async (c) => {
    const params = await grantParams(c);
    const grant = params.get('grant_type');
    if (!grant) return oauthError(c, 400, 'invalid_request', 'Missing grant_type.');
    if (grant !== 'account_credentials') return oauthError(c, 400, 'unsupported_grant_type', `Unsupported grant type: ${grant}.`);
    const basic = basicCredentials(c.req.header('authorization'));
    const client = basic && apps.authenticate(basic.clientId, basic.clientSecret);
    // The service answers a wrong id or secret 400, not RFC 6749's 401 (docs/live-evidence.md).
    if (!client) return oauthError(c, 400, 'invalid_client', 'Invalid client_id or client_secret');
    const accountId = params.get('account_id');
    if (!accountId) return oauthError(c, 400, 'invalid_request', 'Missing account_id.');
    if (accountId !== client.accountId || !state.accounts.has(accountId)) {
      return oauthError(c, 400, 'invalid_grant', 'The account_id is not the account of this app.');
    }
    if (options.limited) {
      const nowMs = state.now().getTime();
      const taken = takeToken(buckets.get(client.clientId), TOKEN_REQUESTS, nowMs);
      if (!taken.allowed) {
        c.header('Retry-After', String(retryAfterSeconds(taken.retryAfterMs)));
        return oauthError(c, 429, 'rate_limited', 'Too many token requests for this app. Try again later.');
      }
      buckets.set(client.clientId, taken.state);
    }
    const token = apps.issue(client, state.now().getTime());
    c.header('Cache-Control', 'no-store');
    return c.json({
      access_token: token.accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_LIFE_SECONDS,
      // Today's answer lists the app's scopes, space-separated (docs/live-evidence.md, "Granular
      // scopes"); an app of full access answers as the sandbox always has.
      scope: client.scopes ? client.scopes.join(' ') : 'account:master',
      // The origin the token is good for: the one the client asked (the sandbox answers v2 beside this endpoint).
      api_url: new URL(c.req.url).origin,
    });
  });

  app.all('/token', (c) => oauthError(c, 400, 'invalid_request', `The token endpoint takes POST, not ${c.req.method}.`));
  return app;
}
