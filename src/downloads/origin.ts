import type { Context } from 'hono';

/**
 * The origin a v1 call's download links are written with: the scheme and host the client used.
 * DOWNLOAD_BASE_URL when set; else, from a trusted proxy (TRUSTED_PROXIES, as the private pages
 * judge it), the `proto=` and `host=` of its Forwarded header, or X-Forwarded-Proto and
 * X-Forwarded-Host; else the call's own URL. Behind a TLS terminator the call reaches v1gate over
 * http, and a link written `http://` would send its bearer first in clear. A peer that is no
 * trusted proxy is not believed: its headers are ignored, and the link is on the call's own origin.
 */

export interface OriginSources {
  baseUrl: string | undefined;
  /** Whether the call's socket peer is a trusted proxy. */
  fromTrustedProxy: (c: Context) => boolean;
}

export function linkOriginOf(c: Context, sources: OriginSources): string {
  if (sources.baseUrl !== undefined) return sources.baseUrl;
  const own = new URL(c.req.url);
  if (!sources.fromTrustedProxy(c)) return own.origin;
  const forwarded = firstElement(c.req.header('forwarded'));
  const proto = (forwarded?.proto ?? firstValue(c.req.header('x-forwarded-proto')))?.toLowerCase();
  const host = forwarded?.host ?? firstValue(c.req.header('x-forwarded-host'));
  const scheme = proto === 'https' || proto === 'http' ? proto : own.protocol.slice(0, -1);
  const authority = host !== undefined && HOST.test(host) ? host.toLowerCase() : own.host;
  return `${scheme}://${authority}`;
}

/** A host as a Host header holds it: a name, an IPv4 address or a bracketed IPv6 one, and a port. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The first of a comma-separated header's values: what the proxy nearest the client wrote. */
function firstValue(header: string | undefined): string | undefined {
  const value = header?.split(',')[0]?.trim();
  return value === '' ? undefined : value;
}

/** The `proto` and `host` of a Forwarded header's first element (RFC 7239). */
function firstElement(header: string | undefined): { proto?: string; host?: string } | undefined {
  const element = header?.split(',')[0];
  if (element === undefined) return undefined;
  const pairs: { proto?: string; host?: string } = {};
  for (const pair of element.split(';')) {
    const [name, ...rest] = pair.split('=');
    const value = rest.join('=').trim().replace(/^"|"$/g, '');
    const key = name?.trim().toLowerCase();
    if ((key === 'proto' || key === 'host') && value !== '') pairs[key] = value;
  }
  return pairs;
}
