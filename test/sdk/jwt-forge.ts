import { createHmac } from 'node:crypto';

/** An HS256 JWT with any claims, made apart from v1gate's signer: what a careless or hostile signer could send. */
export function signJwtForTest(secret: string, claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}
