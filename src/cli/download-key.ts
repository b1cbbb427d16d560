import type { GatewayConfig } from '../config.js';
import { isLoopbackHost } from '../shared/loopback.js';
import type { ConfigProblem } from '../shared/env.js';

/**
 * A download link names its file for as long as the file exists, and only a process holding the
 * key that sealed it can read it. Without DOWNLOAD_URL_KEY each process seals with a random key of
 * its own: links end when it stops, and where several processes or instances serve one address
 * (WORKERS>1, or instances sharing REDIS_URL) a link made by one is refused by the others. Over a
 * remote v2 that is production, so check and start refuse it; over a v2 on this machine (the
 * embedded or a local sandbox, a team's trial) they say it in a warning.
 */

function severalServe(config: GatewayConfig): boolean {
  return config.workers > 1 || config.rateLimits.redis.url !== undefined;
}

function remoteV2(config: GatewayConfig): boolean {
  return config.v2BaseUrl !== undefined && !isLoopbackHost(new URL(config.v2BaseUrl).hostname.replace(/^\[|\]$/g, ''));
}

const WHY =
  'recording download links would be sealed with a random key per process, so a link made by one process is refused by the others and every link ends at a restart';
const FIX = 'set the same DOWNLOAD_URL_KEY (32+ characters: openssl rand -hex 32) on every process and instance';

export function downloadKeyProblems(config: GatewayConfig): ConfigProblem[] {
  if (config.downloads.key !== undefined || !severalServe(config) || !remoteV2(config)) return [];
  const who = config.workers > 1 ? `WORKERS=${config.workers}` : 'REDIS_URL (instances sharing one address)';
  return [{ variable: 'DOWNLOAD_URL_KEY', message: `unset with ${who}: ${WHY}; ${FIX}` }];
}

/** What start and check say without refusing: links that end with the process. */
export function downloadKeyWarnings(config: GatewayConfig): string[] {
  if (config.downloads.key !== undefined || downloadKeyProblems(config).length > 0) return [];
  if (severalServe(config)) return [`DOWNLOAD_URL_KEY is unset: ${WHY}; ${FIX}`];
  if (remoteV2(config))
    return [
      'DOWNLOAD_URL_KEY is unset: recording download links end when this process stops (in v1 they lasted as long as the file); set one to keep them',
    ];
  return [];
}
