import { isIPv4, isIPv6 } from 'node:net';
import { KeyedSlots } from './keyed-slots.js';

/**
 * Connection slots per client address: one address may hold at most `maxPerAddress` connections
 * at once, so that one client reconnecting as fast as it can never holds every slot of the server.
 *
 * A client is its address as the network gives it: an IPv4 address alone, an IPv6 address by its
 * /64 prefix (one subscriber's network, where a host picks any of 2^64 addresses for itself), and
 * an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as a dual-stack listener sees IPv4 clients) as
 * the IPv4 address it is.
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

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** The client an address stands for: `192.0.2.1`, or `2001:db8:0:1::/64` for any address of that /64. */
export function clientOf(address: string): string {
  const mapped = MAPPED_IPV4.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  const bare = address.replace(/%.*$/, ''); // a zone (`fe80::1%eth0`) names an interface, not a host
  if (!isIPv6(bare)) return address;
  const groups = expandIPv6(bare);
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

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
