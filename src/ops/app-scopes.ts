import type { CredentialEntry } from '../upstream/auth/credential-map.js';
import { OAuthTokens, type Grant, type OAuthApp } from '../upstream/auth/oauth-tokens.js';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import { endpointsNotServed, judgeable } from '../translators/kit/scopes.js';
import { keyHash } from './key-hash.js';
import type { StatusSection } from './status-sections.js';

/**
 * Which v1 endpoints each mapped OAuth app cannot serve, judged from the scopes its token answer
 * lists, as the gateway judges a call before its first v2 call (docs/scopes.md): for
 * `credentials check --scopes` and `check`, which ask each app for a token, and the status page,
 * which reads the tokens the gateway holds and asks for none.
 */

export type AppScopes = { apiKey: string } & (
  | { kind: 'jwt' }
  /** No token: the token endpoint refused the app or did not answer (why, in words), or none is held yet. */
  | { kind: 'no-token'; why: string }
  /** Its token lists no scope today's documents name (the sandbox's `account:master`, none at all). */
  | { kind: 'not-judged'; listed: string }
  | { kind: 'judged'; unserved: { path: string; missing: string[] }[] }
);

export function oauthAppOf(entry: CredentialEntry): OAuthApp | undefined {
  if (entry.v2.kind !== 'oauth') return undefined;
  const { account_id: accountId, client_id: clientId, client_secret: clientSecret, token_url: tokenUrl } = entry.v2;
  return { kind: 'oauth', accountId, clientId, clientSecret, ...(tokenUrl ? { tokenUrl } : {}) };
}

/** The endpoints a list of scopes cannot serve, by the list: the status page judges every mapped key's token at each poll, and apps share few lists. */
const judged = new Map<string, { path: string; missing: string[] }[]>();
const MOST_LISTS_KEPT = 1000;

/** What the scopes of `grant` serve of the v1 endpoints. */
export function judgeGrant(apiKey: string, grant: Grant): AppScopes {
  const listed = grant.scopes?.join(' ') ?? 'none';
  if (!judgeable(grant.scopes)) return { apiKey, kind: 'not-judged', listed };
  let unserved = judged.get(listed);
  if (unserved === undefined) {
    if (judged.size >= MOST_LISTS_KEPT) judged.clear();
    judged.set(listed, (unserved = endpointsNotServed(grant.scopes, ALL_ENDPOINTS)));
  }
  return { apiKey, kind: 'judged', unserved };
}

/** Asks each mapped OAuth app for a token (at its token_url, else `defaultTokenUrl`) and judges its scopes. */
export async function askAppScopes(
  entries: readonly CredentialEntry[],
  options: { defaultTokenUrl: string; timeoutMs: number },
): Promise<AppScopes[]> {
  const tokens = new OAuthTokens({ defaultTokenUrl: () => options.defaultTokenUrl, timeoutMs: options.timeoutMs });
  return Promise.all(
    entries.map(async (entry): Promise<AppScopes> => {
      const app = oauthAppOf(entry);
      if (!app) return { apiKey: entry.api_key, kind: 'jwt' };
      try {
        return judgeGrant(entry.api_key, await tokens.grantFor(app));
      } catch (error) {
        return { apiKey: entry.api_key, kind: 'no-token', why: (error as Error).message };
      }
    }),
  );
}

/** `credentials check --scopes`: per key, a line, then one line per endpoint its app cannot serve with the scopes to add. */
export function scopeLines(reports: readonly AppScopes[]): string[] {
  return reports.flatMap((report) => {
    switch (report.kind) {
      case 'jwt':
        return [`${report.apiKey}: a JWT app; its scopes are not checked.`];
      case 'no-token':
        return [`${report.apiKey}: no token (${report.why}); its scopes are unknown.`];
      case 'not-judged':
        return [`${report.apiKey}: its token lists no scope of today's documents (${report.listed}); not judged.`];
      case 'judged':
        return report.unserved.length === 0
          ? [`${report.apiKey}: its app's scopes serve every v1 endpoint.`]
          : [
              `${report.apiKey}: its app's scopes cannot serve ${report.unserved.length} v1 endpoint(s):`,
              ...report.unserved.map((row) => `  ${row.path}\tneeds ${row.missing.join(', ')}`),
            ];
    }
  });
}

/** One line for `check` and the status page: the endpoints the app cannot serve, by path; undefined when it serves all or was not judged. */
export function unservedSummary(report: AppScopes): string | undefined {
  if (report.kind !== 'judged' || report.unserved.length === 0) return undefined;
  return `cannot serve ${report.unserved.length} v1 endpoint(s), for want of scopes (docs/scopes.md): ${report.unserved.map((row) => row.path).join(', ')}`;
}

/**
 * The status page's section: per key mapped to an OAuth app, what the scopes of the token the
 * gateway holds for it serve. Keys are named by their hash, as the logs and metrics name them; a
 * key whose app has no token held yet (no call since the start or the token's renewal) is shown as
 * not known, since the page never asks for a token itself.
 */
export function scopesSection(
  entries: readonly CredentialEntry[],
  heldFor: (app: OAuthApp) => Grant | undefined,
): StatusSection | undefined {
  const rows: StatusSection['rows'] = [];
  let short = 0;
  for (const entry of entries) {
    const app = oauthAppOf(entry);
    if (!app) continue;
    const grant = heldFor(app);
    const report = grant ? judgeGrant(entry.api_key, grant) : undefined;
    const unserved = report && unservedSummary(report);
    if (unserved) short++;
    const value =
      unserved ??
      (!report
        ? 'not known yet: no token held (the first call asks for one)'
        : report.kind === 'judged'
          ? 'its scopes serve every v1 endpoint'
          : "its token lists no scope of today's documents: not judged");
    rows.push({ label: `key ${keyHash(entry.api_key)}`, value, level: unserved ? 'warn' : report ? 'ok' : 'idle' });
  }
  if (rows.length === 0) return undefined;
  return {
    id: 'scopes',
    title: 'App scopes',
    level: short > 0 ? 'warn' : 'ok',
    summary:
      short > 0
        ? `${short} of ${rows.length} mapped OAuth app(s) cannot serve some v1 endpoints for want of scopes (docs/scopes.md)`
        : `no mapped OAuth app is known to lack a scope (${rows.length} app(s))`,
    rows,
  };
}
