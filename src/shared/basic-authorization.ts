/**
 * An `Authorization` header's value for HTTP Basic (RFC 7617): `user:password` in base64, in UTF-8.
 * The OAuth token request and the webhook receivers both send one; this is the one spelling of it.
 */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}
