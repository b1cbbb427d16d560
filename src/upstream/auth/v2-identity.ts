/**
 * Whom v1gate acts as toward v2 for a mapped key: a JWT app's key and secret (signed as the v2 spec
 * says), or a server-to-server OAuth app, whose client id and secret are traded for an access token.
 */
export type V2Identity =
  | { kind: 'jwt'; key: string; secret: string }
  | { kind: 'oauth'; accountId: string; clientId: string; clientSecret: string; tokenUrl?: string };
