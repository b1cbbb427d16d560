/**
 * The v2 base a token's `api_url` sends its calls to. Today's service answers every server-to-server
 * token with `api_url`, the API host of the account's data region (`https://api.zoom.us`, or a
 * regional one such as `https://api-eu.zoom.us`), where that account's calls belong; its global host
 * serves every account too, so following it is for data residency, not reachability
 * (docs/live-evidence.md, "Today's v2 authentication").
 *
 * A token is sent only where v1gate was pointed, or to a host of the same service: `api_url` is
 * followed when it is https and its host is a name under the configured host's parent domain
 * (`api.zoom.us` → any `*.zoom.us`). A gateway pointed at a proxy (`https://proxy.internal/v2`)
 * keeps sending to the proxy, whatever region the token names; and one pointed at an address (a
 * sandbox or a proxy on this machine: `http://127.0.0.1:9000/v2`) is never sent elsewhere, since
 * another port of the same address may be what the proxy stands in front of.
 */

/** The base URL (`https://api-eu.zoom.us/v2`) the token's `apiUrl` names, or undefined to keep `configuredBase`. */
export function regionalBase(configuredBase: string, apiUrl: string): string | undefined {
  let configured: URL;
  let named: URL;
  try {
    configured = new URL(configuredBase);
    named = new URL(apiUrl);
  } catch {
    return undefined;
  }
  if (named.origin === configured.origin || named.protocol !== 'https:') return undefined;
  return sameService(configured.hostname, named.hostname) ? `${named.origin}${configured.pathname.replace(/\/+$/, '')}` : undefined;
}

function sameService(configured: string, named: string): boolean {
  // An address, or a name of this machine, has no parent domain of hosts to share.
  if (isIpAddress(configured) || isIpAddress(named) || configured === 'localhost') return false;
  if (named === configured) return true;
  const dot = configured.indexOf('.');
  const parent = configured.slice(dot + 1);
  // A parent of one label (`example` of `api.example`) is a top-level domain: nothing shared under it.
  return dot > 0 && parent.includes('.') && named.endsWith(`.${parent}`);
}

function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');
}
