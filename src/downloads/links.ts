import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { z } from 'zod';

/**
 * v1gate's download links: `/downloads/{sealed}`, where `sealed` (base64url) is the grant (the v2
 * download_url, the api_key whose v2 app fetches it, when the link ends) encrypted and
 * authenticated with AES-256-GCM: a random 96-bit IV, the ciphertext, the 128-bit tag. The key is
 * derived from DOWNLOAD_URL_KEY by HKDF-SHA256, so the setting's text is never the cipher key
 * itself. Whoever sees a link (a browser's history, a proxy's log, a shared screen) learns neither
 * the api_key nor the v2 URL, and a link changed in any byte, or made with another key, is refused
 * before anything is fetched. A link carries no token and no secret. One random IV per link: NIST
 * SP 800-38D holds a key to 2^32 such encryptions, 136 years of links at a thousand a second.
 *
 * Not a JWE (jose): its header and separators make each link ~40 characters longer, and jose only
 * encrypts asynchronously, where a translator writes each link as it builds its answer.
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

/** The longest link read at all: a longer one is refused unread (it is never decrypted). */
const MAX_LINK_CHARS = 4096;

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What the derived key is for: a key derived for anything else from the same setting is another key. */
const KEY_INFO = 'v1gate download link: AES-256-GCM';

const payloadSchema = z.strictObject({ u: z.url({ protocol: /^https?$/ }), k: z.string().min(1), e: z.number().int() });

/** Why a link is refused, as the client is told. */
export type LinkRefusal = { kind: 'forged' } | { kind: 'expired'; atMs: number };

export class DownloadLinks {
  private readonly key: KeyObject;

  /** `key` undefined: a random one, so the links of this process work only here, until it stops. */
  constructor(key: string | undefined) {
    const bytes = key === undefined ? randomBytes(32) : Buffer.from(hkdfSync('sha256', key, '', KEY_INFO, 32));
    this.key = createSecretKey(bytes);
  }

  /** The sealed path (`/downloads/...`) of a grant. */
  pathOf(grant: DownloadGrant): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = cipher.update(JSON.stringify({ u: grant.url, k: grant.apiKey, e: grant.expiresAtMs }), 'utf8');
    return `${DOWNLOAD_PATH}${Buffer.concat([iv, sealed, cipher.final(), cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The grant a link's last path segment stands for, or why it is refused. */
  read(segment: string, nowMs: number): DownloadGrant | LinkRefusal {
    if (segment.length > MAX_LINK_CHARS) return { kind: 'forged' };
    const bytes = Buffer.from(segment, 'base64url');
    // Node skips what is not base64url: only the one spelling of the bytes is the link.
    if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== segment) return { kind: 'forged' };
    const parsed = payloadSchema.safeParse(parseJson(this.open(bytes)));
    // Sealed with this key but not of this shape: made by another version, or the key is shared with something else.
    if (!parsed.success) return { kind: 'forged' };
    if (parsed.data.e <= nowMs) return { kind: 'expired', atMs: parsed.data.e };
    return { url: parsed.data.u, apiKey: parsed.data.k, expiresAtMs: parsed.data.e };
  }

  /** The plaintext of sealed bytes, or undefined when the tag does not hold (changed, or sealed with another key). */
  private open(bytes: Buffer): string | undefined {
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
