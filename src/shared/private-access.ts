import type { Context, MiddlewareHandler } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { hasControlCharacter } from './control-characters.js';
import { isLoopbackHost } from './loopback.js';

/**
 * Who may see a private page (the status page and its actions, a protected /metrics, the sandbox's
 * control API, the dead-letter routes). The socket alone does not say: a reverse proxy on the same
 * host connects from loopback on behalf of the world, and a page the operator opens reaches
 * loopback by DNS rebinding (its requests carry its own name as Host). So a request is judged by:
 *
 * 1. its Host: a loopback name (localhost, 127.0.0.1, [::1], any port) or one of PRIVATE_HOSTS,
 *    else 403 (a rebinding page cannot send a name the operator configured);
 * 2. who it comes from: a request that says it was forwarded (Forwarded, X-Forwarded-For,
 *    X-Real-IP, …) is refused unless its socket's peer is one of TRUSTED_PROXIES; through a trusted
 *    proxy, the client the proxy names is judged instead of the proxy;
 * 3. the token, when the page has one: a valid bearer token (or `?token=`) opens it, its absence
 *    is 401; a page without a token answers loopback clients only (403 otherwise).
 */
export interface PrivateAccessRules {
  /**
   * Host names (a port optional: `status.example.com`, `10.0.0.5:8080`) besides the loopback ones,
   * or CIDRs (`10.0.0.0/8`) that a Host written as an address may fall in: a scraper in a cluster
   * sends each pod's own address as its Host, which no list of names can hold.
   */
  hosts: readonly string[];
  /** Addresses or CIDRs (`10.0.0.0/8`, `::1`) of the proxies whose forwarding headers are believed. */
  trustedProxies: readonly string[];
}

/** A request's socket peer, and the client it is judged to come from (the peer, or the one a trusted proxy names). */
export interface ClientAddresses {
  peer: string | undefined;
  client: string | undefined;
}

/** What a private route asks of a request beyond its Host and its forwarding. */
export type PrivateKey =
  /** Loopback clients only. */
  | { kind: 'loopback' }
  /** A bearer token (or `?token=`); unset: loopback clients only. */
  | { kind: 'token'; token: string | undefined; name: string }
  /** The route checks a credential of its own (the dead-letter routes' secret token). */
  | { kind: 'own-credential' };

export type Verdict = { allowed: true } | { allowed: false; status: 401 | 403; reason: string };

/** Headers by which a proxy says whose request it passes on: any of them makes a request forwarded. */
const FORWARDING = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-original-forwarded-for',
  'via',
] as const;

const FORWARDING_NAMES: ReadonlySet<string> = new Set(FORWARDING);

/** The headers among FORWARDING that name the client's address (Forwarded's `for=` is read apart). */
const CLIENT_ADDRESS = FORWARDING.filter((h) => !['forwarded', 'x-forwarded-host', 'x-forwarded-proto', 'via'].includes(h));

function sameSecret(a: string, b: string): boolean {
  if (hasControlCharacter(a)) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `[::1]:8080` → `::1`, `Name.Example:80` → `name.example`; undefined when it is no host. */
function hostName(host: string): string | undefined {
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  const named = /^([a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host);
  return named ? named[1]!.toLowerCase() : undefined;
}

/** An address as a proxy writes it: `"[2001:db8::1]:4711"`, `203.0.113.7:80`, `::1`, `unknown`. */
function bareAddress(text: string): string | undefined {
  const value = text.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d+)?$/i.exec(value);
  if (bracketed) return bracketed[1];
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value);
  const address = v4port ? v4port[1]! : value;
  return isIP(address) ? address : undefined;
}

/** What a request's Node side says of it, where it has one (a test's `app.request` has none, or only a socket). */
type NodeRequest = { socket?: { remoteAddress?: string }; headers?: Record<string, string | string[] | undefined> } | undefined;

const nodeRequestOf = (c: Context): NodeRequest => (c.env as { incoming?: NodeRequest } | undefined)?.incoming;

function peerOf(c: Context): string | undefined {
  return nodeRequestOf(c)?.socket?.remoteAddress;
}

function tokenGiven(c: Context): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? c.req.query('token');
}

export class PrivateAccess {
  private readonly hosts: Set<string>;
  private readonly hostSubnets = new BlockList();
  private readonly proxies = new BlockList();

  constructor(rules: PrivateAccessRules) {
    const entries = rules.hosts.map((h) => h.trim().toLowerCase()).filter(Boolean);
    const subnets = entries.filter((h) => h.includes('/'));
    this.hosts = new Set(entries.filter((h) => !subnets.includes(h)));
    for (const subnet of subnets) addProxy(this.hostSubnets, subnet);
    for (const entry of rules.trustedProxies) addProxy(this.proxies, entry);
  }

  /** Whether the request may see a page that asks `key`. */
  judge(c: Context, key: PrivateKey): Verdict {
    const host = c.req.header('host') ?? '';
    if (!this.hostAllowed(host))
      return refused(403, `this page answers requests to localhost or PRIVATE_HOSTS only, not ${JSON.stringify(host.slice(0, 100))}`);
    const from = this.clientOf(c);
    if (from.untrustedProxy) return refused(403, 'a forwarded request is answered only through one of TRUSTED_PROXIES');
    const { client } = from;
    if (key.kind === 'own-credential') return { allowed: true };
    if (key.kind === 'token' && key.token !== undefined) {
      const given = tokenGiven(c);
      return given !== undefined && sameSecret(given, key.token) ? { allowed: true } : refused(401, `a valid ${key.name} is required`);
    }
    return client !== undefined && isLoopbackHost(client)
      ? { allowed: true }
      : refused(403, 'this page answers callers on this machine only');
  }

  /** A Hono middleware that answers a refused request with its status and reason. */
  guard(
    key: PrivateKey,
    answer: (c: Context, refusal: { status: 401 | 403; reason: string }) => Response = defaultAnswer,
  ): MiddlewareHandler {
    return async (c, next) => {
      const verdict = this.judge(c, key);
      if (!verdict.allowed) return answer(c, verdict);
      await next();
    };
  }

  /**
   * Where the sandbox's secrets may be shown: a loopback socket, no proxy between, a loopback Host
   * (the terminal of the machine itself, as the start-up banner's reader is), whatever the rules.
   */
  static strictlyLocal(c: Context): boolean {
    const name = hostName(c.req.header('host') ?? '');
    const peer = peerOf(c);
    return name !== undefined && isLoopbackName(name) && peer !== undefined && isLoopbackHost(peer) && !isForwarded(c);
  }

  /** Whether the request's socket peer is one of TRUSTED_PROXIES, whose forwarding headers (the scheme and host the client used) are believed. */
  fromTrustedProxy(c: Context): boolean {
    const peer = peerOf(c);
    return peer !== undefined && this.trusted(peer);
  }

  /**
   * Who sent a request, for its log line: the socket's peer, and the client: through one of
   * TRUSTED_PROXIES the client the proxy names, else the peer itself (a forwarding header from
   * anyone else, or proxies naming different clients, is not believed).
   */
  addresses(c: Context): ClientAddresses {
    const peer = peerOf(c);
    // The usual call, sent straight: its peer is its client, read without asking anything more.
    if (!isForwarded(c)) return { peer, client: peer };
    const from = this.clientOf(c);
    return { peer, client: (from.untrustedProxy ? undefined : from.client) ?? peer };
  }

  private hostAllowed(host: string): boolean {
    const name = hostName(host);
    if (name === undefined) return false;
    return isLoopbackName(name) || this.hosts.has(host.toLowerCase()) || this.hosts.has(name) || inSubnets(this.hostSubnets, name);
  }

  /**
   * The client to judge: the socket's peer, or through a trusted proxy the nearest address the
   * proxies name that is not a trusted proxy itself (no client when a trusted proxy forwards
   * without naming anyone, or its headers name different ones).
   */
  private clientOf(c: Context): { untrustedProxy: true } | { untrustedProxy: false; client: string | undefined } {
    const peer = peerOf(c);
    if (!isForwarded(c)) return { untrustedProxy: false, client: peer };
    if (peer === undefined || !this.trusted(peer)) return { untrustedProxy: true };
    const claims = this.claimedClients(c);
    const first = claims[0];
    return { untrustedProxy: false, client: first !== undefined && claims.every((claim) => claim === first) ? first : undefined };
  }

  /** Each forwarding header's client, read from its right end past the trusted proxies; unreadable ones as ''. */
  private claimedClients(c: Context): string[] {
    const chains: string[][] = [];
    const forwarded = c.req.header('forwarded');
    if (forwarded !== undefined) {
      chains.push(forwarded.split(',').map((element) => /(?:^|;)\s*for=("[^"]*"|[^;,\s]*)/i.exec(element)?.[1] ?? ''));
    }
    for (const name of CLIENT_ADDRESS) {
      const value = c.req.header(name);
      if (value !== undefined) chains.push(value.split(','));
    }
    return chains.map((chain) => {
      for (const hop of [...chain].reverse()) {
        const address = bareAddress(hop);
        if (address === undefined) return '';
        if (!this.trusted(address)) return address;
      }
      return bareAddress(chain[0] ?? '') ?? '';
    });
  }

  private trusted(address: string): boolean {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
    return isIP(plain) !== 0 && this.proxies.check(plain, family);
  }
}

/**
 * Whether any forwarding header is present. Where Node's request is at hand, its header object
 * (lower-case names, built by Node before any app runs) is asked: through Hono, each of the 13
 * names was checked, lower-cased and looked up by the adaptor's header class, 1 µs a call for a
 * question whose answer is nearly always no. Node keeps every one of these headers (it drops
 * repeats only of headers such as Host and Authorization), under its lower-case name, with a
 * string or list value, so the two ways agree on presence.
 */
function isForwarded(c: Context): boolean {
  const headers = nodeRequestOf(c)?.headers;
  if (headers === undefined) return FORWARDING.some((name) => c.req.header(name) !== undefined);
  // The request's few headers, each looked for among the 13, rather than the 13 looked for among
  // them: a Set lookup of a name Node made is a third of the cost of a missing property's.
  for (const name in headers) if (FORWARDING_NAMES.has(name)) return true;
  return false;
}

function isLoopbackName(name: string): boolean {
  return name === 'localhost' || (isIP(name) !== 0 && isLoopbackHost(name));
}

function refused(status: 401 | 403, reason: string): Verdict {
  return { allowed: false, status, reason };
}

function defaultAnswer(c: Context, refusal: { status: 401 | 403; reason: string }): Response {
  return c.json({ error: refusal.reason }, refusal.status, { 'cache-control': 'no-store' });
}

/** One TRUSTED_PROXIES entry: an address or a CIDR; throws on anything else (the setting's schema says so first). */
function inSubnets(list: BlockList, name: string): boolean {
  const version = isIP(name);
  return version !== 0 && list.check(name, version === 6 ? 'ipv6' : 'ipv4');
}

function addProxy(list: BlockList, entry: string): void {
  const [address = '', prefix] = entry.trim().split('/');
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (isIP(address) === 0) throw new Error(`not an address or CIDR: ${entry}`);
  if (prefix === undefined) list.addAddress(address, family);
  else list.addSubnet(address, Number(prefix), family);
}

/** Whether `entry` is an address or a CIDR TRUSTED_PROXIES can hold. */
export function isProxyEntry(entry: string): boolean {
  const match = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry.trim());
  if (!match) return false;
  const version = isIP(match[1]!);
  if (version === 0) return false;
  return match[2] === undefined || Number(match[2]) <= (version === 4 ? 32 : 128);
}

/**
 * The guard of the sandbox's control API (/sandbox/*), which changes any account's state and lists
 * its secrets: a private page for callers on this machine only, refused in v2's shape. Every
 * listener that serves it puts this in front: the gateway's, the embedded sandbox's own, a
 * cluster's hub and `npm run sandbox` (SANDBOX_PUBLIC=1 leaves it off where a sandbox is shared).
 */
export function sandboxControlGuard(access: PrivateAccess): MiddlewareHandler {
  return access.guard({ kind: 'loopback' }, (c, refusal) =>
    c.json({ code: 200, message: `The sandbox control API: ${refusal.reason} (SANDBOX_PUBLIC=1 opens it).` }, refusal.status),
  );
}

/** A comma-separated setting's entries, trimmed, blanks dropped. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
