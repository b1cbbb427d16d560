import { z } from 'zod';
import { envSection, wholeNumber } from '../shared/env.js';

/** Recording downloads through v1gate's own sealed links (src/downloads/). */
export interface DownloadConfig {
  /** The key links are sealed with (through HKDF); undefined: a random key made at start (links end with the process). */
  key: string | undefined;
  /** How long a link, once answered, can be downloaded. */
  ttlMs: number;
  /** The v2 download hosts a link may name (`zoom.us`, `*.zoom.us`), over https; the v2 service's own origin is allowed too. */
  hosts: readonly string[];
  /** The origin links are written with; undefined: the origin the v1 call was made to. */
  baseUrl: string | undefined;
  /** Downloads of one key's links streaming at once, per process; the next is answered 429. */
  maxPerKey: number;
}

const hostPattern = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

export const DOWNLOAD_SETTINGS = envSection({
  title: 'Recording downloads',
  variables: {
    DOWNLOAD_URL_KEY: z
      .string()
      .min(32, 'must be at least 32 characters')
      .optional()
      .describe(
        'the key that seals (encrypts and authenticates) the download links v1gate answers for recording files (the same on every process and instance serving one address); unset: a random key made at start, so links end with the process',
      ),
    DOWNLOAD_URL_TTL_S: wholeNumber(1, 7 * 86_400)
      .default(6 * 3_600)
      .describe('how long a download link works after the v1 answer that carried it; default 21600 (6 hours)'),
    DOWNLOAD_HOSTS: z
      .string()
      .trim()
      .toLowerCase()
      .default('zoom.us,*.zoom.us')
      .describe("the v2 hosts a recording's download_url may be on (https only; `*.` for any subdomain); default zoom.us,*.zoom.us"),
    DOWNLOAD_BASE_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .optional()
      .describe(
        "the origin download links are written with (behind a proxy or TLS terminator); unset: the origin of the v1 call's own request",
      ),
    DOWNLOAD_MAX_PER_KEY: wholeNumber(1, 10_000)
      .default(8)
      .describe(
        "downloads of one api_key's links streaming at once (per process); one more is answered 429: a link is a bearer until it expires, and its downloads spend no v2 call budget; default 8",
      ),
  },
  secret: ['DOWNLOAD_URL_KEY'],
  build(e, problem): DownloadConfig | undefined {
    const hosts = e.DOWNLOAD_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const bad = hosts.filter((h) => !hostPattern.test(h));
    if (bad.length > 0) {
      problem('DOWNLOAD_HOSTS', `not host names: ${bad.join(', ')}`);
      return undefined;
    }
    return {
      key: e.DOWNLOAD_URL_KEY,
      ttlMs: e.DOWNLOAD_URL_TTL_S * 1000,
      hosts,
      baseUrl: e.DOWNLOAD_BASE_URL === undefined ? undefined : new URL(e.DOWNLOAD_BASE_URL).origin,
      maxPerKey: e.DOWNLOAD_MAX_PER_KEY,
    };
  },
});
