import type { OAuthApp } from './auth/oauth-tokens.js';
import type { V2Identity } from './auth/v2-identity.js';

/**
 * What a v2 call is made with, apart from the request: the caller's key pair, and the query. Their
 * own module, so that the client's helpers (JWT minting, pair proofs, coalescing) can name them
 * without importing the client that imports them.
 */

export interface Credentials {
  apiKey: string;
  apiSecret: string;
  /** Kept by pairProofOf (pair-proof.ts): the pair's hash, made once. */
  proof?: string;
  /**
   * Whom to act as toward v2, when the credential map names the key and its secret was checked
   * against the map (auth/credential-map.ts); absent, the pair itself signs the v2 JWT.
   */
  v2?: V2Identity;
  /**
   * Kept by the authorizer (auth/authorizer.ts): the embedded sandbox's app the pair acted as, what
   * a 401 tells the token cache to forget. A field, not a WeakMap of pairs: its set cost a µs a call.
   */
  embeddedApp?: OAuthApp;
}

export type Query = Record<string, string | number | boolean | undefined>;
