import type { Context } from 'hono';
import type { RecordingFileRef } from '../translators/kit/define.js';
import type { V2Authorizer } from '../upstream/auth/authorizer.js';
import type { Credentials } from '../upstream/credentials.js';
import type { DownloadConfig } from './config.js';
import { DownloadLinks, expiryOf } from './links.js';
import { linkOriginOf } from './origin.js';
import { downloadRoutes } from './serve.js';

/**
 * Recording downloads through v1gate: the links the recording answers carry instead of v2's
 * download_url (which needs a bearer token a v1 client does not have), and the route that serves
 * them. Mounted by the gateway with one line; the facade hands translators `linkFor`.
 */

export interface DownloadsDeps {
  config: DownloadConfig;
  v2Origin: () => string;
  v2BaseUrl: () => string;
  authorizer: V2Authorizer;
  credentialsOf: (apiKey: string) => Credentials | undefined | Promise<Credentials | undefined>;
  /** Whether a call's socket peer is one of TRUSTED_PROXIES (whose X-Forwarded-Proto/-Host are believed). */
  fromTrustedProxy: (c: Context) => boolean;
  timeoutMs: number;
  connections: number;
  /** The time links' ends are judged by (epoch ms); tests move it. */
  now?: () => number;
}

export function createDownloads(deps: DownloadsDeps) {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const links = new DownloadLinks({ current: config.key, previous: config.previous });
  const routes = downloadRoutes({ ...deps, links, hosts: config.hosts, maxPerKey: config.maxPerKey, now });
  const sources = { baseUrl: config.baseUrl, fromTrustedProxy: deps.fromTrustedProxy };
  return {
    app: routes.app,
    close: routes.close,
    /**
     * The link maker of one v1 call of `apiKey`: each recording file becomes its one link, on
     * DOWNLOAD_BASE_URL or the origin the client used, ending only where DOWNLOAD_URL_TTL_S is set.
     */
    linkFor(apiKey: string, c: Context): (file: RecordingFileRef) => string {
      // The origin is read only when a link is made: every call gets a link maker, and few answers
      // hold a recording (a URL parse was ~1% of a checkemail call's CPU).
      let origin: string | undefined;
      return (file) => {
        origin ??= linkOriginOf(c, sources);
        const expiresAtMs = config.ttlMs === undefined ? undefined : expiryOf(now(), config.ttlMs);
        const path = links.pathOf({
          apiKey,
          meetingUuid: file.meetingUuid,
          fileId: file.fileId,
          ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
        });
        return `${origin}${path}`;
      };
    },
  };
}

export type Downloads = ReturnType<typeof createDownloads>;
