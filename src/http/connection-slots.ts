import { isIPv6 } from 'node:net';
import { KeyedSlots } from '../shared/keyed-slots.js';

/**
 * Connection slots per client address: one address may hold at most `maxPerAddress` connections
 * at once, so that one client reconnecting as fast as it can never holds every slot of the server.
 *
 * A client is its address as the network gives it (`clientOf`, the one grouping of addresses
 * v1gate makes): an IPv4 address alone, an IPv6 address by its /64 prefix (one subscriber's
 * network, where a host picks any of 2^64 addresses for itself), and an IPv6 address that carries
 * an IPv4 client's address as that IPv4 address.
 */
export class ConnectionSlots {
  private readonly slots: KeyedSlots;

  constructor(maxPerAddress: number) {
    this.slots = new KeyedSlots(maxPerAddress);
  }

  /** Takes a slot for the client at `address`: its release, or undefined when the client holds all of its own. */
  take(address: string): (() => void) | undefined {
    return this.slots.take(clientOf(address));
  }

  /** The connections the client at `address` holds now. */
  heldBy(address: string): number {
    return this.slots.heldBy(clientOf(address));
  }

  /** How many clients hold a slot now (each one's count is dropped with its last connection). */
  get clients(): number {
    return this.slots.keys;
  }
}

/**
 * The client an address stands for: `192.0.2.1`, or `2001:db8:0:1::/64` for any address of that /64.
 *
 * An IPv6 address with an IPv4 client's address in it is that IPv4 client, wherever the address was
 * put: IPv4-mapped (`::ffff:192.0.2.1`, a dual-stack listener's IPv4 clients) and IPv4-translated
 * (`::ffff:0:192.0.2.1`, SIIT); NAT64's well-known prefix (`64:ff9b::192.0.2.1`, RFC 6052), where a
 * /64 would make every IPv4 client behind the translator one client sharing one budget; 6to4
 * (`2002:c000:0201::/48`, a site per IPv4 address, which as /64s would have 65,536 budgets); Teredo
 * (`2001:0::/32`, the client's IPv4 address inverted in the last 32 bits, its server's in the /64).
 * In NAT64's local-use prefix (`64:ff9b:1::/48`, RFC 8215) the IPv4 address sits where the
 * operator's prefix length puts it, and the translator writes every other bit: there the whole
 * address is the client, one per IPv4 client whatever that length.
 */
export function clientOf(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone (`fe80::1%eth0`) names an interface, not a host
  if (!isIPv6(bare)) return address;
  const groups = expandIPv6(bare).map((group) => parseInt(group, 16));
  const ipv4 = embeddedIPv4(groups);
  if (ipv4 !== undefined) return ipv4;
  const hex = groups.map((group) => group.toString(16));
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return hex.join(':');
  return `${hex.slice(0, 4).join(':')}::/64`;
}

/** The IPv4 client an IPv6 address carries (its eight groups as numbers), if it carries one. */
function embeddedIPv4(groups: readonly number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return dotted(g6, g7); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return dotted(g6, g7); // ::ffff:0:a.b.c.d, IPv4-translated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dotted(g6, g7); // 64:ff9b::/96
  if (g0 === 0x2002) return dotted(g1, g2); // 6to4: the site's IPv4 address
  if (g0 === 0x2001 && g1 === 0) return dotted(g6 ^ 0xffff, g7 ^ 0xffff); // Teredo: the client's, inverted
  return undefined;
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The eight 16-bit groups of a valid IPv6 address, lower-case hex (an embedded IPv4 tail as its two groups). */
function expandIPv6(address: string): string[] {
  const text = address.toLowerCase().replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a: string, b: string, c: string, d: string) => {
    const hex = (x: string, y: string) => ((Number(x) << 8) | Number(y)).toString(16);
    return `${hex(a, b)}:${hex(c, d)}`;
  });
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const front = head ? head.split(':') : [];
  if (tail === undefined) return front;
  const back = tail ? tail.split(':') : [];
  return [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
}
