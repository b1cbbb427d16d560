import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { prefixOf } from '../shared/route-owners.js';

/**
 * The status page's anti-forgery token: per browser session and short-lived. A session is a random
 * nonce in an HttpOnly, SameSite=Strict cookie (a request another site starts does not carry it);
 * a token is `<issued, unix seconds>.<HMAC-SHA256 over nonce and time>` under a key minted at
 * start, so it is good only with its own session's cookie, only for `ttlSeconds`, and only in this
 * process's life. /status/data hands out a fresh one with every poll; verification is in constant time.
 */

export const SESSION_COOKIE = 'v1gate_status_session';
/** How long a token is good for: the page polls every 2 s, so an open page always holds a fresh one. */
export const CSRF_TTL_SECONDS = 600;

export class StatusCsrf {
  private readonly key = randomBytes(32);

  constructor(
    private readonly ttlSeconds = CSRF_TTL_SECONDS,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** This browser's session nonce, a new one (with its cookie set on the answer) when it has none. */
  session(c: Context): string {
    const existing = getCookie(c, SESSION_COOKIE);
    if (existing !== undefined && /^[A-Za-z0-9_-]{22}$/.test(existing)) return existing;
    const nonce = randomBytes(16).toString('base64url');
    setCookie(c, SESSION_COOKIE, nonce, { httpOnly: true, sameSite: 'Strict', path: prefixOf('status') });
    return nonce;
  }

  /** A token for the request's session, good for ttlSeconds from now. */
  issue(c: Context): string {
    const issued = this.nowSeconds();
    return `${issued}.${this.mac(this.session(c), issued)}`;
  }

  /** Whether `given` was issued by this process, for the session whose cookie the request carries, and has not expired. */
  verify(c: Context, given: string | undefined): boolean {
    const nonce = getCookie(c, SESSION_COOKIE);
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(given ?? '');
    if (nonce === undefined || !match) return false;
    const issued = Number(match[1]);
    const age = this.nowSeconds() - issued;
    const expected = Buffer.from(this.mac(nonce, issued));
    const mac = Buffer.from(match[2]!);
    const same = expected.length === mac.length && timingSafeEqual(expected, mac);
    return same && age >= 0 && age <= this.ttlSeconds;
  }

  private mac(nonce: string, issued: number): string {
    return createHmac('sha256', this.key).update(`${nonce}.${issued}`).digest('base64url');
  }
}
