import { readFileSync } from 'node:fs';

let known: string | undefined;

/**
 * v1gate's version, from its package.json: two folders up from this module in the source tree,
 * three in the compiled one (`dist/src/shared/`). Read once; 'unknown' when neither is v1gate's.
 */
export function packageVersion(): string {
  known ??= readPackageVersion();
  return known;
}

function readPackageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const json = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (json.name === 'v1gate' && json.version) return json.version;
    } catch {
      // not at this depth: the compiled tree sits one folder deeper
    }
  }
  return 'unknown';
}

/** What every v2 call of v1gate names itself by (User-Agent): the service's logs, and the sandbox's traffic log, tell its calls by it. */
export const GATEWAY_AGENT_PREFIX = 'v1gate/';

export function gatewayUserAgent(): string {
  return `${GATEWAY_AGENT_PREFIX}${packageVersion()}`;
}
