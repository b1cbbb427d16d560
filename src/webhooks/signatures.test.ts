import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../v2-contract/webhook-signature.js';
import { EventSignatures, REMEMBERED, type SignedHeaders } from './signatures.js';

const NOW = 1_800_000_000_000;
const WINDOW = 300_000;
const seconds = (ms: number) => String(Math.floor(ms / 1000));
const signatures = () => new EventSignatures(['current-secret', undefined, 'previous-secret'], WINDOW, () => NOW);

function claimOf(s: EventSignatures, secret: string, body: string, at = NOW): SignedHeaders {
  const claim = s.claim(signatureHeader(secret, seconds(at), body), seconds(at));
  if ('error' in claim) throw new Error(claim.error);
  return claim;
}

describe('which events the intake believes', () => {
  it('refuses from the headers alone a signature not of the v0 form, or a timestamp not in whole seconds', () => {
    const s = signatures();
    const hex = 'ab'.repeat(32);
    for (const [signature, timestamp] of [
      [undefined, seconds(NOW)],
      [`v0=${hex}`, undefined],
      [hex, seconds(NOW)],
      [`v1=${hex}`, seconds(NOW)],
      [`v0=${hex.slice(2)}`, seconds(NOW)],
      [`v0=${hex.toUpperCase()}`, seconds(NOW)],
      [`v0=${hex} `, seconds(NOW)],
      [`v0=${hex}`, `${seconds(NOW)}.5`],
      [`v0=${hex}`, `-${seconds(NOW)}`],
      [`v0=${hex}`, String(NOW * 1000)],
    ]) {
      expect(s.claim(signature, timestamp), `${signature} ${timestamp}`).toMatchObject({ status: 401 });
    }
  });

  it('takes a timestamp up to the window away, either way, and not a second more', () => {
    const s = signatures();
    const at = (ms: number) => s.claim(`v0=${'0'.repeat(64)}`, seconds(ms));
    expect(at(NOW - WINDOW)).not.toHaveProperty('error');
    expect(at(NOW + WINDOW)).not.toHaveProperty('error');
    expect(at(NOW - WINDOW - 1_000)).toMatchObject({ status: 401 });
    expect(at(NOW + WINDOW + 1_000)).toEqual({ status: 401, error: 'x-zm-request-timestamp is more than 300 s ahead of now' });
  });

  it("takes one behind now as long as the journal remembers what it took: the service's retry keeps its first timestamp", () => {
    const DAY = 86_400_000;
    const s = new EventSignatures(['current-secret'], WINDOW, () => NOW, DAY);
    const at = (ms: number) => s.claim(`v0=${'0'.repeat(64)}`, seconds(ms));
    // The service's last retry comes 85 minutes after the first send.
    expect(at(NOW - 85 * 60_000)).not.toHaveProperty('error');
    expect(at(NOW - DAY)).not.toHaveProperty('error');
    expect(at(NOW - DAY - 1_000)).toEqual({
      status: 401,
      error: 'x-zm-request-timestamp is older than the 86400 s v1gate remembers the events it took',
    });
    expect(at(NOW + WINDOW + 1_000)).toMatchObject({ status: 401 });
  });

  it('names the secret that signed the raw bytes, current or previous, and none for another secret or other bytes', () => {
    const s = signatures();
    expect(s.signer(claimOf(s, 'current-secret', '{"a":1}'), Buffer.from('{"a":1}'))).toBe('current-secret');
    expect(s.signer(claimOf(s, 'previous-secret', '{"a":1}'), Buffer.from('{"a":1}'))).toBe('previous-secret');
    expect(s.signer(claimOf(s, 'current-secret', '{"a":1}'), Buffer.from('{"a": 1}'))).toBeUndefined();
    expect(s.signer(claimOf(s, 'another-secret', '{"a":1}'), Buffer.from('{"a":1}'))).toBeUndefined();
    // The timestamp is part of what is signed: the same signature under another time is not the body's.
    const claim = claimOf(s, 'current-secret', '{"a":1}');
    expect(s.signer({ ...claim, timestamp: seconds(NOW + 1_000) }, Buffer.from('{"a":1}'))).toBeUndefined();
  });

  it('refuses a remembered signature, and remembers at most REMEMBERED of them', () => {
    const s = signatures();
    const first = claimOf(s, 'current-secret', 'event-0');
    expect(s.taken(first)).toBe(false);
    s.remember(first);
    expect(s.taken(first)).toBe(true);
    // The same body signed at another second is another request (a redelivery), not a replay.
    expect(s.taken(claimOf(s, 'current-secret', 'event-0', NOW + 1_000))).toBe(false);
    for (let i = 1; i <= REMEMBERED; i++) s.remember(claimOf(s, 'current-secret', `event-${i}`));
    expect(s.taken(first)).toBe(false);
    expect(s.taken(claimOf(s, 'current-secret', `event-${REMEMBERED}`))).toBe(true);
  });

  it('opens the dead-letter routes to either secret token only', () => {
    const s = signatures();
    expect([s.isSecret('current-secret'), s.isSecret('previous-secret')]).toEqual([true, true]);
    expect([s.isSecret(undefined), s.isSecret(''), s.isSecret('current-secre'), s.isSecret('current-secret ')]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('cannot be made without a secret token', () => {
    expect(() => new EventSignatures([undefined, ''], WINDOW)).toThrow('needs a secret token');
  });
});
