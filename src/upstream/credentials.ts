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
}

export type Query = Record<string, string | number | boolean | undefined>;
