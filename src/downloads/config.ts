import { z } from 'zod';
import { envSection, wholeNumber } from '../shared/env.js';

/** Recording downloads through v1gate's own sealed links (src/downloads/). */
export interface DownloadConfig {
  /** The key links are sealed with (through HKDF); undefined: a random key made at start (links end with the process). */
  key: string | undefined;
  /** A key rotated out: its links are still read until `untilMs`. */
  previous: { key: string; untilMs: number } | undefined;
  /** An optional lifetime of links (DOWNLOAD_URL_TTL_S); undefined: a link works as long as its file exists, as in v1. */
  ttlMs: number | undefined;
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
        "the key (32 characters or more: openssl rand -hex 32) that seals (encrypts and authenticates) the download links v1gate answers for recording files in place of v2's download_url: the same on every process and instance serving one address (required with WORKERS>1 or REDIS_URL over a remote v2: check and the start refuse otherwise), and kept across restarts, since a link names its file for as long as the file exists; unset: a random key made at start, so links end with the process and work only where they were made",
      ),
    DOWNLOAD_URL_KEY_PREVIOUS: z
      .string()
      .min(32, 'must be at least 32 characters')
      .optional()
      .describe(
        'a DOWNLOAD_URL_KEY rotated out: its links still download until DOWNLOAD_URL_KEY_PREVIOUS_UNTIL (new answers carry links of the new key)',
      ),
    DOWNLOAD_URL_KEY_PREVIOUS_UNTIL: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 instant (2026-12-31T00:00:00Z)' })
      .optional()
      .describe('when the links of DOWNLOAD_URL_KEY_PREVIOUS stop working (ISO 8601); required with it'),
    DOWNLOAD_URL_TTL_S: wholeNumber(60, 366 * 86_400)
      .optional()
      .describe(
        'an optional lifetime of download links: a link lives at least this long and less than twice it (it ends at the end of the next period of this length, so answers within one period carry the same link), then answers 410; unset: a link works as long as its file exists, as in v1',
      ),
    DOWNLOAD_HOSTS: z
      .string()
      .trim()
      .toLowerCase()
      .default('zoom.us,*.zoom.us')
      .describe(
        "the hosts a recording's download_url may be fetched from, over https on port 443 (`*.` for any subdomain); the v2 service's own origin is allowed too, and nothing else is fetched, whatever a link says; default zoom.us,*.zoom.us",
      ),
    DOWNLOAD_BASE_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .optional()
      .describe(
        "the origin download links are written with, where clients reach v1gate; unset: a trusted proxy's (TRUSTED_PROXIES) Forwarded proto=/host= or X-Forwarded-Proto/X-Forwarded-Host (the shipped nginx sets both), else the origin of the v1 call's own request (a peer that is no trusted proxy is not believed)",
      ),
    DOWNLOAD_MAX_PER_KEY: wholeNumber(1, 10_000)
      .default(8)
      .describe(
        "downloads of one api_key's links streaming at once (per process); one more is answered 429 with Retry-After: 1: a link is a bearer until it expires, and its downloads spend no v2 call budget (each asks v2 for the file's recording once, outside the budgets); default 8",
      ),
  },
  secret: ['DOWNLOAD_URL_KEY', 'DOWNLOAD_URL_KEY_PREVIOUS'],
  build(e, problem): DownloadConfig | undefined {
    const hosts = e.DOWNLOAD_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const bad = hosts.filter((h) => !hostPattern.test(h));
    if (bad.length > 0) {
      problem('DOWNLOAD_HOSTS', `not host names: ${bad.join(', ')}`);
      return undefined;
    }
    const previous = previousKeyOf(e.DOWNLOAD_URL_KEY_PREVIOUS, e.DOWNLOAD_URL_KEY_PREVIOUS_UNTIL, problem);
    if (previous === false) return undefined;
    return {
      key: e.DOWNLOAD_URL_KEY,
      previous,
      ttlMs: e.DOWNLOAD_URL_TTL_S === undefined ? undefined : e.DOWNLOAD_URL_TTL_S * 1000,
      hosts,
      baseUrl: e.DOWNLOAD_BASE_URL === undefined ? undefined : new URL(e.DOWNLOAD_BASE_URL).origin,
      maxPerKey: e.DOWNLOAD_MAX_PER_KEY,
    };
  },
});

/** The rotated-out key and its end, both or neither; false: a problem was told. */
function previousKeyOf(
  key: string | undefined,
  until: string | undefined,
  problem: (variable: 'DOWNLOAD_URL_KEY_PREVIOUS' | 'DOWNLOAD_URL_KEY_PREVIOUS_UNTIL', message: string) => void,
): DownloadConfig['previous'] | false {
  if (key === undefined && until === undefined) return undefined;
  if (key === undefined) {
    problem('DOWNLOAD_URL_KEY_PREVIOUS_UNTIL', 'set without DOWNLOAD_URL_KEY_PREVIOUS');
    return false;
  }
  if (until === undefined) {
    problem('DOWNLOAD_URL_KEY_PREVIOUS', 'needs DOWNLOAD_URL_KEY_PREVIOUS_UNTIL: when the rotated-out key stops opening links');
    return false;
  }
  return { key, untilMs: Date.parse(until) };
}
