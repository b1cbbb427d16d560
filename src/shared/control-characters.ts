/**
 * Whether a text holds a control character: C0 (U+0000–U+001F) or DEL (U+007F). No secret, key or
 * token v1gate is given holds one, and some would match a secret without them: scrypt's PBKDF2 and
 * HMAC pad a key shorter than their block with zero bytes, so `secret\0` hashes as `secret`. Every
 * credential is tested here before it is hashed or compared, and refused when it holds one.
 */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x1f || code === 0x7f) return true;
  }
  return false;
}

/** What a refusal says of such a value. */
export const CONTROL_CHARACTER_REFUSAL = 'It holds a control character (U+0000 to U+001F or U+007F), which no credential has.';
