import { describe, expect, it } from 'vitest';
import { ConnectionSlots, clientOf } from './connection-slots.js';

describe('clientOf', () => {
  it('is an IPv4 address itself, whether or not it came mapped into IPv6', () => {
    expect(clientOf('192.0.2.1')).toBe('192.0.2.1');
    expect(clientOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientOf('::FFFF:192.0.2.1')).toBe('192.0.2.1');
    expect(clientOf('192.0.2.2')).not.toBe(clientOf('192.0.2.1'));
  });

  it('is the /64 prefix of an IPv6 address, however it is written', () => {
    const client = clientOf('2001:db8:0:1::1');
    expect(client).toBe('2001:db8:0:1::/64');
    for (const same of [
      '2001:db8:0:1:ffff:ffff:ffff:ffff',
      '2001:0DB8:0000:0001:0:0:0:2',
      '2001:db8::1:abcd:0:0:1',
      '2001:db8:0:1::7%eth0',
    ]) {
      expect(clientOf(same), same).toBe(client);
    }
    expect(clientOf('2001:db8:0:2::1')).not.toBe(client);
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});

describe('ConnectionSlots', () => {
  it('gives each client its own slots up to the cap, and a released slot back once', () => {
    const slots = new ConnectionSlots(2);
    const first = slots.take('192.0.2.1')!;
    const second = slots.take('::ffff:192.0.2.1')!;
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(slots.take('192.0.2.1')).toBeUndefined();
    expect(slots.take('2001:db8:0:1::1')).toBeTypeOf('function');
    expect(slots.take('2001:db8:0:1::2')).toBeTypeOf('function');
    expect(slots.take('2001:db8:0:1::3')).toBeUndefined();
    expect(slots.take('192.0.2.2')).toBeTypeOf('function');
    first();
    first(); // a second release of the same slot frees nothing more
    expect(slots.heldBy('192.0.2.1')).toBe(1);
    expect(slots.take('192.0.2.1')).toBeTypeOf('function');
    expect(slots.take('192.0.2.1')).toBeUndefined();
  });

  it('forgets a client once it holds nothing', () => {
    const slots = new ConnectionSlots(1);
    const releases = Array.from({ length: 1_000 }, (_, i) => slots.take(`10.0.${i >> 8}.${i & 255}`)!);
    expect(slots.clients).toBe(1_000);
    for (const release of releases) release();
    expect(slots.clients).toBe(0);
  });
});
