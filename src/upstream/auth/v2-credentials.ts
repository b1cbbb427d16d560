import type { ProofBudget } from '../pair-proof.js';
import { V2Budgets } from '../outbound-budget.js';
import { DEFAULT_RATE_LIMIT_PLAN, type RateLimitPlan } from '../../v2-contract/rate-limit-plans.js';
import { TokenMinter } from '../jwt.js';
import { V2Authorizer, type EmbeddedApps } from './authorizer.js';
import type { CredentialConfig } from './config.js';
import { CredentialFileError, CredentialMap, readCredentialFile, type CredentialEntry, type SdkApp } from './credential-map.js';
import { LocalCheck } from './local-check.js';
import { OAuthTokens } from './oauth-tokens.js';
import type { ProvenSecretStore } from './proven-secrets.js';
import type { V2Identity } from './v2-identity.js';

/**
 * What one gateway acts as toward v2, put together: the credential map in force (swapped whole by
 * a reload), its local check of the keys it names, and the authorizer that gives each v2 call its
 * bearer token (the pair's own JWT, a mapped JWT app's, or a server-to-server OAuth token).
 */
export interface V2Credentials {
  /** The credential map's check; undefined without V2_CREDENTIALS_FILE. */
  local: LocalCheck | undefined;
  authorizer: V2Authorizer;
  /** The OAuth token cache; undefined without V2_CREDENTIALS_FILE. */
  oauth: OAuthTokens | undefined;
  /**
   * Reads the file again (SIGHUP). A file with problems changes nothing: the map in force stays,
   * and the problems are returned. Pairs are checked again against the new map (its memory is new).
   */
  reload(): { ok: true; keys: number } | { ok: false; problems: readonly string[] };
  /** The entries of the map in force (none without a file). */
  entries(): readonly CredentialEntry[];
  /** The Meeting SDK app the map in force gives a key (none without a file). */
  sdkAppOf(apiKey: string): SdkApp | undefined;
  /** Whom the map in force acts as for a key (none without a file, or for an unmapped key). */
  identityOf(apiKey: string): V2Identity | undefined;
  /** Whose v2 rate-limit budgets each pair's calls spend, and at which plan. */
  budgets: V2Budgets;
}

export interface V2CredentialsDeps {
  jwtTtlSeconds: number;
  /** How long the token endpoint may take. */
  timeoutMs: number;
  /** The v2 service's base URL (read when first needed: the embedded sandbox's is known once the port is). */
  v2BaseUrl: () => string;
  /** Bounds the hash checks of new pairs of mapped keys. */
  budget?: ProofBudget;
  /** Where matched pairs of mapped keys are remembered past a restart and between instances (made once the file is known). */
  proven?: (file: string) => ProvenSecretStore;
  /** Over the embedded sandbox: the OAuth app each of its accounts' pairs acts as (docs/decisions.md). */
  embedded?: EmbeddedApps;
  /** The plan of a v2 account whose plan neither the map nor the sandbox names (OUTBOUND_DEFAULT_PLAN). */
  defaultPlan?: RateLimitPlan;
}

export function v2CredentialsOf(config: CredentialConfig, deps: V2CredentialsDeps): V2Credentials {
  const minter = new TokenMinter({
    ttlSeconds: deps.jwtTtlSeconds,
    renewBeforeSeconds: Math.floor(deps.jwtTtlSeconds / 3),
    maxCachedKeys: 10_000,
  });
  const file = config.file;
  const budgets = new V2Budgets(deps.defaultPlan ?? DEFAULT_RATE_LIMIT_PLAN, deps.embedded);
  const oauth = new OAuthTokens({
    defaultTokenUrl: () => config.defaultTokenUrl ?? defaultTokenUrlOf(deps.v2BaseUrl()),
    timeoutMs: deps.timeoutMs,
  });
  if (!file) {
    return {
      local: undefined,
      authorizer: new V2Authorizer(minter, deps.embedded ? oauth : undefined, deps.embedded),
      oauth: deps.embedded ? oauth : undefined,
      reload: () => ({ ok: true, keys: 0 }),
      entries: () => [],
      sdkAppOf: () => undefined,
      identityOf: () => undefined,
      budgets,
    };
  }
  let map = new CredentialMap(config.entries);
  const local = new LocalCheck({
    map: () => map,
    only: config.only,
    ...(deps.budget ? { budget: deps.budget } : {}),
    ...(deps.proven ? { proven: deps.proven(file) } : {}),
  });
  return {
    local,
    authorizer: new V2Authorizer(minter, oauth, deps.embedded),
    oauth,
    entries: () => map.entries(),
    sdkAppOf: (apiKey) => map.sdkAppOf(apiKey),
    identityOf: (apiKey) => map.identityOf(apiKey),
    budgets,
    reload() {
      try {
        map = new CredentialMap(readCredentialFile(file));
        return { ok: true, keys: map.size };
      } catch (error) {
        if (error instanceof CredentialFileError) return { ok: false, problems: error.problems.map((p) => `${file}: ${p}`) };
        throw error;
      }
    },
  };
}

/**
 * Where an OAuth app without a `token_url` asks for tokens: the service's token endpoint is on its
 * OAuth host (`https://zoom.us/oauth/token`), not its API host (`https://api.zoom.us/v2`); any other
 * v2 (the sandbox, a proxy, a test double) answers it beside its API, at its origin's `/oauth/token`.
 */
export function defaultTokenUrlOf(v2BaseUrl: string): string {
  const origin = new URL(v2BaseUrl);
  if (origin.hostname === 'api.zoom.us') return 'https://zoom.us/oauth/token';
  return `${origin.origin}/oauth/token`;
}
