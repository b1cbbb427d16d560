import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { CONTROL_CHARACTER_REFUSAL, hasControlCharacter } from '../../shared/control-characters.js';

/**
 * A v1 secret kept as a salted scrypt hash in the PHC string format
 * (`$scrypt$ln=12,r=8,p=1$<salt>$<hash>`, base64 without padding), so that the credentials file
 * never holds a legacy secret. scrypt because Node has it built in and it is memory-hard. The cost
 * (2^12 × 8 × 128 bytes = 4 MiB, about 10 ms of one core) is paid once per pair, since checked
 * pairs are remembered (credential-map.ts), and it is what anyone can make v1gate spend with a
 * made-up secret: so it is bounded (the secret-check budget) and kept moderate. The secrets it
 * guards are machine-made (the service's, or `npm run credentials -- rotate`'s 256 random bits),
 * which no cost parameter needs to protect; a stronger hash (ln up to 20) is accepted as given.
 */

const COST = { ln: 12, r: 8, p: 1 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{32,})$/;

function derive(secret: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, length, { ...options, maxmem: 256 * options.N! * options.r! + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

export async function hashSecret(secret: string): Promise<string> {
  if (hasControlCharacter(secret)) throw new Error(`The secret cannot be hashed: ${CONTROL_CHARACTER_REFUSAL}`);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(secret, salt, HASH_BYTES, { N: 2 ** COST.ln, r: COST.r, p: COST.p });
  return `$scrypt$ln=${COST.ln},r=${COST.r},p=${COST.p}$${b64(salt)}$${b64(key)}`;
}

/** Why a `secret_hash` value cannot be used, or undefined when it can. */
export function secretHashProblem(value: string): string | undefined {
  const match = PHC.exec(value);
  if (!match) return 'is not a scrypt hash as `npm run -s credentials -- hash` prints it ($scrypt$ln=..,r=..,p=..$salt$hash)';
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (ln < 10 || ln > 20 || r < 1 || r > 32 || p < 1 || p > 16) return 'has scrypt parameters outside ln 10–20, r 1–32, p 1–16';
  return undefined;
}

/** Whether `secret` is the one `phc` was made from; compared in constant time. */
export async function verifySecret(secret: string, phc: string): Promise<boolean> {
  const match = PHC.exec(phc);
  // Never hashed: PBKDF2 pads a short key with zeros, so `secret\0` would match `secret`.
  if (!match || hasControlCharacter(secret)) return false;
  const expected = Buffer.from(match[5]!, 'base64');
  const key = await derive(secret, Buffer.from(match[4]!, 'base64'), expected.length, {
    N: 2 ** Number(match[1]),
    r: Number(match[2]),
    p: Number(match[3]),
  });
  return timingSafeEqual(key, expected);
}
