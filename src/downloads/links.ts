import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { prefixOf } from '../shared/route-owners.js';

/**
 * v1gate's download links: `/downloads/{sealed}`, where `sealed` (base64url) names one recording
 * file: the api_key whose v2 app reaches it, the meeting (instance) uuid whose recording holds it,
 * its file id and, only where an operator set DOWNLOAD_URL_TTL_S, when the link ends. A v1 link was
 * the file's own fixed address, and integrations keep it in pages, mails and calendars and find it
 * again by exact string match, so the same file gives the same link in every answer, on every
 * process sharing DOWNLOAD_URL_KEY, for as long as the file exists: the sealing is deterministic.
 *
 * It is SIV (RFC 5297's construction, with HMAC-SHA256 as the PRF): the IV is the first 128 bits of
 * an HMAC of the plaintext, and the plaintext is encrypted with AES-256-CTR under that IV. The same
 * file always seals to the same bytes, and nothing else is revealed: not the api_key, not the ids,
 * not even whether two links share a key or a meeting. The IV is the tag too: a link changed in any
 * byte, or sealed with another key, decrypts to a plaintext whose HMAC is not its IV, and is refused
 * before anything is fetched. Both keys are derived from the setting by HKDF-SHA256, each with its
 * own info string, so the setting's text is neither key itself.
 *
 * A link names the file, not where v2 keeps it: the download asks v2 for the file's address then
 * (a fresh call and token), so a link outlives v2's download URLs and tokens, and ends when the
 * file is deleted or trashed (v2 no longer lists it).
 */

export const DOWNLOAD_PATH = `${prefixOf('downloads')}/` as const;

/** The recording file a link names. */
export interface LinkedFile {
  /** The api_key whose v2 app (credential map, or the embedded sandbox's account) fetches it. */
  apiKey: string;
  /** The meeting instance uuid whose recording holds the file. */
  meetingUuid: string;
  /** The file's id in that recording. */
  fileId: string;
  /** When the link stops working (epoch ms), only where DOWNLOAD_URL_TTL_S is set. */
  expiresAtMs?: number;
}

/** The keys links are sealed and read with. */
export interface LinkKeys {
  /** DOWNLOAD_URL_KEY; undefined: a random one, so the links of this process work only here, until it stops. */
  current: string | undefined;
  /** DOWNLOAD_URL_KEY_PREVIOUS: a key rotated out, whose links are still read until `untilMs`. */
  previous?: { key: string; untilMs: number } | undefined;
}

/** The longest link read at all: a longer one is refused unread (it is never decrypted). */
const MAX_LINK_CHARS = 4096;
const SIV_BYTES = 16;
/** What each derived key is for: a key derived for anything else from the same setting is another key. */
const ENCRYPTION_INFO = 'v1gate download link: file name, AES-256-CTR';
const MAC_INFO = 'v1gate download link: file name, HMAC-SHA256 SIV';

const payloadSchema = z.strictObject({
  k: z.string().min(1),
  m: z.string().min(1),
  f: z.string().min(1),
  e: z.number().int().optional(),
});

/** Why a link is refused, as the client is told. */
export type LinkRefusal = { kind: 'forged' } | { kind: 'expired'; atMs: number };

/** One key's pair of derived keys. */
class Sealer {
  private readonly encryption: Buffer;
  private readonly mac: Buffer;

  constructor(key: string | undefined) {
    const ikm = key ?? randomBytes(32);
    this.encryption = Buffer.from(hkdfSync('sha256', ikm, '', ENCRYPTION_INFO, 32));
    this.mac = Buffer.from(hkdfSync('sha256', ikm, '', MAC_INFO, 32));
  }

  seal(plaintext: Buffer): Buffer {
    const siv = this.sivOf(plaintext);
    const cipher = createCipheriv('aes-256-ctr', this.encryption, siv);
    return Buffer.concat([siv, cipher.update(plaintext), cipher.final()]);
  }

  /** The plaintext of sealed bytes, or undefined when its SIV does not hold (changed, or sealed with another key). */
  open(bytes: Buffer): Buffer | undefined {
    const siv = bytes.subarray(0, SIV_BYTES);
    const decipher = createDecipheriv('aes-256-ctr', this.encryption, siv);
    const plaintext = Buffer.concat([decipher.update(bytes.subarray(SIV_BYTES)), decipher.final()]);
    return timingSafeEqual(this.sivOf(plaintext), siv) ? plaintext : undefined;
  }

  private sivOf(plaintext: Buffer): Buffer {
    return createHmac('sha256', this.mac).update(plaintext).digest().subarray(0, SIV_BYTES);
  }
}

export class DownloadLinks {
  private readonly current: Sealer;
  private readonly previous: { sealer: Sealer; untilMs: number } | undefined;

  constructor(keys: LinkKeys) {
    this.current = new Sealer(keys.current);
    this.previous = keys.previous && { sealer: new Sealer(keys.previous.key), untilMs: keys.previous.untilMs };
  }

  /** The sealed path (`/downloads/...`) of a file: the same path for the same file, every time. */
  pathOf(file: LinkedFile): string {
    const payload: z.input<typeof payloadSchema> = { k: file.apiKey, m: file.meetingUuid, f: file.fileId };
    if (file.expiresAtMs !== undefined) payload.e = file.expiresAtMs;
    return `${DOWNLOAD_PATH}${this.current.seal(Buffer.from(JSON.stringify(payload), 'utf8')).toString('base64url')}`;
  }

  /** The file a link's last path segment names, or why it is refused. */
  read(segment: string, nowMs: number): LinkedFile | LinkRefusal {
    if (segment.length > MAX_LINK_CHARS) return { kind: 'forged' };
    const bytes = Buffer.from(segment, 'base64url');
    // Node skips what is not base64url: only the one spelling of the bytes is the link.
    if (bytes.length <= SIV_BYTES || bytes.toString('base64url') !== segment) return { kind: 'forged' };
    const previous = this.previous && nowMs < this.previous.untilMs ? this.previous.sealer : undefined;
    const plaintext = this.current.open(bytes) ?? previous?.open(bytes);
    const parsed = payloadSchema.safeParse(parseJson(plaintext));
    // Sealed with this key but not of this shape: made by another version, or the key is shared with something else.
    if (!parsed.success) return { kind: 'forged' };
    const { k, m, f, e } = parsed.data;
    if (e !== undefined && e <= nowMs) return { kind: 'expired', atMs: e };
    return e === undefined ? { apiKey: k, meetingUuid: m, fileId: f } : { apiKey: k, meetingUuid: m, fileId: f, expiresAtMs: e };
  }
}

/**
 * When a link made at `nowMs` ends, where DOWNLOAD_URL_TTL_S is set: the end of the next period of
 * that length, so every answer within one period writes the same link (deterministic, as without a
 * lifetime), and a link lives at least one period and less than two.
 */
export function expiryOf(nowMs: number, ttlMs: number): number {
  return (Math.floor(nowMs / ttlMs) + 2) * ttlMs;
}

function parseJson(bytes: Buffer | undefined): unknown {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
