import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * v1gate's download links: `/downloads/{payload}.{signature}`, where the payload (base64url JSON)
 * names the v2 download_url, the api_key whose v2 app fetches it, and when the link ends, and the
 * signature is an HMAC-SHA256 of the payload under v1gate's key. A link carries no token and no
 * secret; one whose payload or signature was changed, or made with another key, is refused before
 * anything is fetched.
 */

export const DOWNLOAD_PATH = '/downloads/';

/** What a link stands for. */
export interface DownloadGrant {
  /** The v2 download_url. */
  url: string;
  /** The api_key whose v2 app (credential map, or the embedded sandbox's account) fetches it. */
  apiKey: string;
  /** When the link stops working (epoch ms). */
  expiresAtMs: number;
}

/** The longest link read at all: a longer one is refused unread (its payload is never decoded). */
const MAX_LINK_CHARS = 4096;

const payloadSchema = z.strictObject({ u: z.url({ protocol: /^https?$/ }), k: z.string().min(1), e: z.number().int() });

/** Why a link is refused, as the client is told. */
export type LinkRefusal = { kind: 'forged' } | { kind: 'expired'; atMs: number };

export class DownloadLinks {
  private readonly key: Buffer;

  /** `key` undefined: a random one, so the links of this process work only here, until it stops. */
  constructor(key: string | undefined) {
    this.key = key === undefined ? randomBytes(32) : Buffer.from(key);
  }

  /** The signed path (`/downloads/...`) of a grant. */
  pathOf(grant: DownloadGrant): string {
    const payload = Buffer.from(JSON.stringify({ u: grant.url, k: grant.apiKey, e: grant.expiresAtMs })).toString('base64url');
    return `${DOWNLOAD_PATH}${payload}.${this.sign(payload)}`;
  }

  /** The grant a link's last path segment stands for, or why it is refused. */
  read(segment: string, nowMs: number): DownloadGrant | LinkRefusal {
    if (segment.length > MAX_LINK_CHARS) return { kind: 'forged' };
    const dot = segment.indexOf('.');
    if (dot < 0) return { kind: 'forged' };
    const payload = segment.slice(0, dot);
    const given = Buffer.from(segment.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: 'forged' };
    const parsed = payloadSchema.safeParse(parseJson(Buffer.from(payload, 'base64url').toString()));
    // Signed by this key but not of this shape: made by another version, or the key is shared with something else.
    if (!parsed.success) return { kind: 'forged' };
    if (parsed.data.e <= nowMs) return { kind: 'expired', atMs: parsed.data.e };
    return { url: parsed.data.u, apiKey: parsed.data.k, expiresAtMs: parsed.data.e };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update('v1gate download link\n').update(payload).digest('base64url');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
