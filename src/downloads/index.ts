import type { V2Authorizer } from '../upstream/auth/authorizer.js';
import type { Credentials } from '../upstream/credentials.js';
import type { DownloadConfig } from './config.js';
import { DownloadLinks } from './links.js';
import { downloadRoutes } from './serve.js';

/**
 * Recording downloads through v1gate: the links the recording answers carry instead of v2's
 * download_url (which needs a bearer token a v1 client does not have), and the route that serves
 * them. Mounted by the gateway with one line; the facade hands translators `linkFor`.
 */

export interface DownloadsDeps {
  config: DownloadConfig;
  v2Origin: () => string;
  authorizer: V2Authorizer;
  credentialsOf: (apiKey: string) => Credentials | undefined | Promise<Credentials | undefined>;
  timeoutMs: number;
  connections: number;
}

export function createDownloads(deps: DownloadsDeps) {
  const { config } = deps;
  const links = new DownloadLinks(config.key);
  const routes = downloadRoutes({ ...deps, links, hosts: config.hosts, maxPerKey: config.maxPerKey });
  return {
    app: routes.app,
    close: routes.close,
    /**
     * The link maker of one v1 call of `apiKey`, made to `requestUrl`: each v2 download_url becomes
     * a link on DOWNLOAD_BASE_URL (or the call's own origin), ending DOWNLOAD_URL_TTL_S from now.
     */
    linkFor(apiKey: string, requestUrl: string): (v2Url: string) => string {
      // The call's origin is parsed only when a link is made: every call gets a link maker, and
      // few answers hold a recording (a URL parse was ~1% of a checkemail call's CPU).
      let origin = config.baseUrl;
      return (url) => `${(origin ??= new URL(requestUrl).origin)}${links.pathOf({ url, apiKey, expiresAtMs: Date.now() + config.ttlMs })}`;
    },
  };
}

export type Downloads = ReturnType<typeof createDownloads>;
