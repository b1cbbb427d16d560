import type { CredentialEntry } from '../src/upstream/auth/credential-map.js';
import { OAuthTokens } from '../src/upstream/auth/oauth-tokens.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';
import { endpointsNotServed, judgeable } from '../src/translators/kit/scopes.js';

/**
 * `credentials check --scopes`: asks each mapped OAuth app's token endpoint for a token and lists
 * the v1 endpoints its scopes cannot serve (each with the scopes to add; docs/scopes.md). A JWT
 * app, or a token that lists no scope today's documents name, is not judged.
 */
export async function scopeLines(entries: readonly CredentialEntry[], defaultTokenUrl: string | undefined): Promise<string[]> {
  const tokens = new OAuthTokens({ defaultTokenUrl: () => defaultTokenUrl ?? 'https://zoom.us/oauth/token', timeoutMs: 10_000 });
  const lines: string[] = [];
  for (const entry of entries) {
    if (entry.v2.kind !== 'oauth') {
      lines.push(`${entry.api_key}: a JWT app; its scopes are not checked.`);
      continue;
    }
    const { account_id: accountId, client_id: clientId, client_secret: clientSecret, token_url: tokenUrl } = entry.v2;
    try {
      const grant = await tokens.grantFor({ kind: 'oauth', accountId, clientId, clientSecret, ...(tokenUrl ? { tokenUrl } : {}) });
      const listed = grant.scopes?.join(' ') ?? 'none';
      if (!judgeable(grant.scopes)) {
        lines.push(`${entry.api_key}: its token lists no scope of today's documents (${listed}); not judged.`);
        continue;
      }
      const unserved = endpointsNotServed(grant.scopes, ALL_ENDPOINTS);
      lines.push(
        unserved.length === 0
          ? `${entry.api_key}: its app's scopes serve every v1 endpoint.`
          : `${entry.api_key}: its app's scopes cannot serve ${unserved.length} v1 endpoint(s):`,
        ...unserved.map((row) => `  ${row.path}\tneeds ${row.missing.join(', ')}`),
      );
    } catch (error) {
      lines.push(`${entry.api_key}: no token (${(error as Error).message}); its scopes are unknown.`);
    }
  }
  return lines;
}
