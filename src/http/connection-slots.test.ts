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
  });

  it('is the IPv4 client an IPv6 address carries, wherever a translator or tunnel put it', () => {
    for (const [address, client] of [
      ['::ffff:0:192.0.2.1', '192.0.2.1'], // IPv4-translated (SIIT)
      ['::ffff:c000:201', '192.0.2.1'], // IPv4-mapped, written in hex
      ['64:ff9b::192.0.2.1', '192.0.2.1'], // NAT64, the well-known prefix (RFC 6052)
      ['64:ff9b::c000:201', '192.0.2.1'],
      ['64:FF9B:0:0:0:0:C000:0201', '192.0.2.1'],
      ['2002:c000:201::1', '192.0.2.1'], // 6to4: the site's IPv4 address, any of its /64s
      ['2002:c000:201:ffff::1', '192.0.2.1'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdfe', '192.0.2.1'], // Teredo: the client's address, inverted
    ]) {
      expect(clientOf(address!), address).toBe(client);
    }
    // Two IPv4 clients behind one NAT64 translator are two clients, not one /64 sharing one budget.
    expect(clientOf('64:ff9b::192.0.2.2')).toBe('192.0.2.2');
    expect(clientOf('2001:0:4136:e378:8000:63bf:3fff:fdfd')).toBe('192.0.2.2');
  });

  it("is the whole address in NAT64's local-use prefix (RFC 8215), where the IPv4 address sits where the operator put it", () => {
    expect(clientOf('64:ff9b:1::192.0.2.1')).toBe('64:ff9b:1:0:0:0:c000:201');
    expect(clientOf('64:ff9b:1:0:0:0:c000:202')).not.toBe(clientOf('64:ff9b:1::192.0.2.1'));
    // A /48 translation prefix: the IPv4 address spans the /64 boundary, so /64s would merge 256 clients.
    expect(clientOf('64:ff9b:1:c000:2:100::')).not.toBe(clientOf('64:ff9b:1:c000:2:200::'));
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
    // An IPv4 client through NAT64 is the same client, holding its own slots and no one else's.
    expect(slots.take('64:ff9b::192.0.2.1')).toBeUndefined();
    expect(slots.take('64:ff9b::192.0.2.3')).toBeTypeOf('function');
    expect(slots.take('64:ff9b::192.0.2.4')).toBeTypeOf('function');
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
