import { retryAfterSeconds } from '../shared/retry-after.js';
import { pathBelow, prefixOf } from '../shared/route-owners.js';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { BodyReadError, bodyReadFirst } from '../http/request-body.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { TokenVerifier, tokenFrom, type V2AuthMode } from './auth.js';
import { requireScopes } from './scopes.js';
import { systemClock, type Clock } from './clock.js';
import type { SandboxContext, SandboxEnv } from './context.js';
import { registerChatRoutes } from './chat/routes.js';
import { registerControlRoutes } from './control/routes.js';
import { oneUpdateAtATime, withTrackingId } from './concurrency.js';
import { SandboxError, V2Code } from './errors.js';
import { registerGroupRoutes } from './groups/routes.js';
import { registerH323Routes } from './h323/routes.js';
import { apiCredential } from './ids.js';
import { registerMeetingRoutes } from './meetings/routes.js';
import type { Account } from './model/account.js';
import {
  DEFAULT_RATE_LIMIT_PLAN,
  LimitExceededError,
  SandboxRateLimiter,
  SPEC_LIMITS,
  callKindOf,
  standingHeaders,
  type CallKind,
  type SandboxLimits,
} from './rate-limit.js';
import { recordingDownloads, type RecordingDownloads } from './report/recording-downloads.js';
import { registerPostMeetingRoutes } from './report/routes.js';
import { registerSdkRoutes } from './sdk/routes.js';
import { START_APP_NAME } from './oauth/apps.js';
import { oauthRoutes } from './oauth/routes.js';
import { sandboxIdentity, seedMasterAccount } from './seed.js';
import { SandboxState } from './state.js';
import { trafficRecorder } from './traffic-log.js';
import { registerUserRoutes } from './users/routes.js';

export interface SandboxOptions {
  /** Master account credentials; random when absent. */
  apiKey?: string;
  apiSecret?: string;
  /** The master account's server-to-server OAuth app; random when absent. */
  oauthClientId?: string;
  oauthClientSecret?: string;
  ownerEmail?: string;
  /** Base of rendered urls. */
  publicUrl?: string;
  /** The v2 limits to enforce; `false` disables them (benchmarks of the gateway alone). */
  limits?: SandboxLimits | false;
  clock?: Clock;
  /** How v2 calls authenticate: `today` (default: OAuth access tokens in the header only) or `legacy` (JWTs and query tokens too). */
  v2Auth?: V2AuthMode;
  /** Told of an error no route expected (answered 500): the gateway logs it; unset: only the 500 says so. */
  onUnexpectedError?: (error: Error) => void;
  /** A folder to append every v2 request and answer to (SANDBOX_TRAFFIC_LOG); unset: nothing is kept. */
  trafficLog?: string;
}

export interface Sandbox {
  /** The v2 API, to be mounted at `/v2`. */
  v2: Hono<SandboxEnv>;
  /** The control API, to be mounted at `/sandbox`. */
  control: Hono;
  state: SandboxState;
  master: Account;
  credentials: { apiKey: string; apiSecret: string };
  /** The master account's server-to-server OAuth app: what a client trades at `/oauth/token`. */
  oauthApp: { accountId: string; clientId: string; clientSecret: string };
  /** The OAuth token endpoint, to be mounted at `/oauth` (`POST /oauth/token`). */
  oauth: Hono;
  /** Recording files' bytes, to be mounted at `/rec` (`GET /rec/download/{token}`, behind the bearer check). */
  recordings: RecordingDownloads;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const state = new SandboxState(options.clock ?? systemClock);
  const publicUrl = options.publicUrl ?? 'https://sandbox.v1gate.local';
  const credentials = { apiKey: options.apiKey ?? apiCredential(16), apiSecret: options.apiSecret ?? apiCredential(27) };
  const master = seedMasterAccount(state, {
    ...credentials,
    ownerEmail: options.ownerEmail ?? 'owner@sandbox.v1gate.local',
    host: publicUrl,
    identity: sandboxIdentity(options),
  });
  const app = state.oauthApps.add({
    accountId: master.id,
    name: START_APP_NAME,
    createdAt: state.nowIso(),
    ...(options.oauthClientId ? { clientId: options.oauthClientId } : {}),
    ...(options.oauthClientSecret ? { clientSecret: options.oauthClientSecret } : {}),
  });
  const oauthApp = { accountId: master.id, clientId: app.clientId, clientSecret: app.clientSecret };
  const v2Auth = options.v2Auth ?? 'today';
  const verifier = new TokenVerifier(state, v2Auth);
  const limits = options.limits === undefined ? SPEC_LIMITS : options.limits;
  const limiter = limits ? new SandboxRateLimiter(limits) : null;
  const ctx: SandboxContext = { state, master, publicUrl, limiter };

  const v2 = new Hono<SandboxEnv>();
  const renderError = errorRenderer(options.onUnexpectedError ?? (() => {}));
  v2.onError(renderError);
  v2.notFound((c) => c.json({ code: 404, message: `No such v2 endpoint: ${c.req.method} ${c.req.path}` }, 404));
  // First: a request refused at the token, scope or limit check is kept too.
  if (options.trafficLog) v2.use(trafficRecorder(options.trafficLog));
  v2.use(withTrackingId);
  v2.use(async (c, next) => {
    const token = tokenFrom(c.req.header('authorization'), c.req.query('access_token'), v2Auth);
    const account = await verifier.verify(token);
    // Before the limiter: a call its token may not make is refused without spending the account's budget.
    requireScopes(token === undefined ? undefined : state.oauthApps.tokenOf(token)?.scopes, c.req.method, relativePath(c.req.path));
    if (limiter) {
      const kind = callKindOf(c.req.method, relativePath(c.req.path));
      const plan = account.rateLimitPlan ?? DEFAULT_RATE_LIMIT_PLAN;
      const standing = limiter.admit({ id: account.id, plan }, kind, meetingWriter(state, account, kind), state.now().getTime());
      for (const [name, value] of Object.entries(standingHeaders(standing))) c.header(name, value);
    }
    c.set('account', account);
    await next();
  });
  // Before the body is read: an update whose body is still coming is in flight.
  if (limiter) v2.use(oneUpdateAtATime(relativePath));
  // After the token check: a caller with no token gets its 401 without a byte of its body kept.
  v2.use(bodyReadFirst);
  registerAccountRoutes(v2, ctx);
  registerUserRoutes(v2, ctx);
  registerMeetingRoutes(v2, ctx);
  registerGroupRoutes(v2, ctx);
  registerPostMeetingRoutes(v2, ctx);
  registerH323Routes(v2, ctx);
  registerChatRoutes(v2, ctx);

  const control = new Hono();
  control.onError(renderError);
  control.use(bodyReadFirst);
  registerControlRoutes(control, ctx);
  // The offline browser meeting SDK (/sandbox/sdk/...): pages join the same meetings v2 reports on.
  registerSdkRoutes(control, ctx);

  const oauth = new Hono();
  oauth.onError(renderError);
  oauth.use(withTrackingId);
  oauth.use(bodyReadFirst);
  oauth.route('/', oauthRoutes({ state, limited: limits !== false }));

  const recordings = recordingDownloads(state, verifier, v2Auth, control);
  recordings.app.onError(renderError);

  return { v2, control, state, master, credentials, oauthApp, oauth, recordings };
}

/**
 * Mount the sandbox on a root app at its prefixes in the route table: the v2 API (`/v2`), the
 * control API (`/sandbox`), the OAuth token endpoint (`/oauth`), the recording files (`/rec`).
 */
export function mountSandbox(root: Hono, sandbox: Sandbox): void {
  root.route(prefixOf('v2'), sandbox.v2);
  root.route(prefixOf('sandboxControl'), sandbox.control);
  root.route(prefixOf('oauth'), sandbox.oauth);
  root.route(prefixOf('recordings'), sandbox.recordings.app);
}

/** The user whose day a meeting or webinar create or update spends: the path's user, or the session's host. */
function meetingWriter(state: SandboxState, account: Account, kind: CallKind): string | undefined {
  const write = kind.meetingWrite;
  if (!write) return undefined;
  if ('userRef' in write) return state.findUser(account, write.userRef)?.id;
  return state.findMeeting(account, write.sessionRef, write.kind)?.host_id;
}

/** The request path without its mount prefix (`/v2/users` → `/users`). */
const relativePath = (path: string): string => pathBelow(prefixOf('v2'), path);

function errorRenderer(unexpected: (error: Error) => void) {
  return (error: Error, c: import('hono').Context): Response => {
    if (error instanceof LimitExceededError) {
      for (const [name, value] of Object.entries(standingHeaders(error.standing))) c.header(name, value);
      const after = error.retryAfter;
      // A rate's wait in seconds; a day's reset as the time it comes, as the service writes it.
      c.header(
        'Retry-After',
        'afterMs' in after ? String(retryAfterSeconds(after.afterMs)) : new Date(after.atMs).toISOString().replace('.000Z', 'Z'),
      );
    }
    if (error instanceof SandboxError) return c.json(error.toBody(), error.status);
    if (error instanceof BodyReadError) return c.json({ code: V2Code.invalidParameter, message: error.message }, error.status);
    if (error instanceof HTTPException) return c.json({ code: error.status, message: error.message }, error.status);
    unexpected(error);
    return c.json({ code: 500, message: 'Internal error.' }, 500);
  };
}
