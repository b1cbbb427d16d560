/**
 * Which URLs a download link may name: a v2 download host (DOWNLOAD_HOSTS: `zoom.us`, `*.zoom.us`)
 * over https on its usual port, or the v2 service's own origin (the embedded sandbox, or
 * V2_BASE_URL's). Checked on every link, signed or not, so v1gate fetches nothing else even if its
 * key were known: it is no open proxy.
 */
export function isDownloadTarget(url: string, hosts: readonly string[], v2Origin: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.username || target.password) return false;
  if (target.origin === v2Origin) return true;
  if (target.protocol !== 'https:' || target.port !== '') return false;
  const name = target.hostname;
  return hosts.some((host) => (host.startsWith('*.') ? name.endsWith(host.slice(1)) : name === host));
}
