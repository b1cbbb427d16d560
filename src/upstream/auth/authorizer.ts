import type { Credentials } from '../credentials.js';
import type { TokenMinter } from '../jwt.js';
import type { Grant, OAuthApp, OAuthTokens } from './oauth-tokens.js';
import type { V2Identity } from './v2-identity.js';

/**
 * The bearer token of a v2 call, by whom the call acts as: a key the credential map names acts as
 * its v2 app (a JWT app's key and secret, or a server-to-server OAuth app's access token); over the
 * embedded sandbox, a pair of one of its accounts acts as that account's OAuth app (`embedded`); any
 * other pair signs the v2 JWT with its own key and secret, as the v2 spec describes.
 */

/** The embedded sandbox's OAuth app for a pair of one of its accounts, the secret matched; undefined for any other pair. */
export type EmbeddedApps = (credentials: Credentials) => OAuthApp | undefined | Promise<OAuthApp | undefined>;
export class V2Authorizer {
  /** A mapped JWT app as the minter takes it: one object per app, so its pair hash is made once. */
  private readonly jwtApps = new WeakMap<V2Identity, Credentials>();

  constructor(
    private readonly minter: TokenMinter,
    /** Absent: no OAuth app is mapped (a mapped one fails loudly rather than falling back to the caller's secret). */
    private readonly oauth?: OAuthTokens,
    private readonly embedded?: EmbeddedApps,
  ) {}

  async tokenFor(credentials: Credentials): Promise<string> {
    return (await this.grantFor(credentials)).token;
  }

  /**
   * The bearer token, and for an OAuth app's token the `api_url` its answer named (where the
   * account's calls belong). At once, not as a promise, when the token is held and whom the pair
   * acts as is known at once: most calls.
   */
  grantFor(credentials: Credentials): Grant | Promise<Grant> {
    // The app found for the pair earlier in the same v1 call (a found app stays the pair's while the sandbox runs).
    const v2 = credentials.v2 ?? credentials.embeddedApp;
    if (v2) return this.grantOf(credentials, v2);
    // No closure where the app is known at once (nowOrLater would make one per call).
    const app = this.embeddedAppOf(credentials);
    if (app instanceof Promise) return app.then((found) => this.grantOf(credentials, found));
    return this.grantOf(credentials, app);
  }

  private grantOf(credentials: Credentials, v2: V2Identity | undefined): Grant | Promise<Grant> {
    // A pair no app stands for signs its own JWT: today's v2 refuses it (a wrong secret over the sandbox is refused so).
    if (!v2) return this.minter.grantFor(credentials);
    if (v2.kind === 'oauth') {
      if (!this.oauth) throw new Error('An OAuth app is mapped, but the gateway was built without OAuth tokens.');
      return this.oauth.grantFor(v2);
    }
    let app = this.jwtApps.get(v2);
    if (!app) {
      app = { apiKey: v2.key, apiSecret: v2.secret };
      this.jwtApps.set(v2, app);
    }
    return this.minter.grantFor(app);
  }

  /**
   * v2 answered 401 to a call made with `token`. True when a new token may succeed (an OAuth access
   * token, revoked or ended early, is forgotten): the call is sent once more. A JWT we signed
   * ourselves would only be signed alike again.
   */
  renewable(credentials: Credentials, token: string): boolean {
    const v2 = credentials.v2 ?? credentials.embeddedApp;
    if (v2?.kind !== 'oauth' || !this.oauth) return false;
    this.oauth.refused(v2, token);
    return true;
  }

  private embeddedAppOf(credentials: Credentials): OAuthApp | undefined | Promise<OAuthApp | undefined> {
    if (!this.oauth || !this.embedded) return undefined;
    const app = this.embedded(credentials);
    if (app instanceof Promise) return app.then((found) => this.embeddedFound(credentials, found));
    return this.embeddedFound(credentials, app);
  }

  private embeddedFound(credentials: Credentials, app: OAuthApp | undefined): OAuthApp | undefined {
    if (app) credentials.embeddedApp = app;
    return app;
  }
}
