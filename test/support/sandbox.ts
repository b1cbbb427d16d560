import { Hono } from 'hono';
import { createSandbox, mountSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/app.js';
import { ACCESS_TOKEN_LIFE_SECONDS } from '../../src/sandbox/oauth/apps.js';
import { embeddedAppOf } from '../../src/sandbox/oauth/embedded.js';
import type { SandboxState } from '../../src/sandbox/state.js';
import { signV2Token as signToken } from '../../src/upstream/jwt.js';
import { listen, type Listening } from './listen.js';

export interface RunningSandbox extends Listening {
  sandbox: Sandbox;
  /** Call the v2 API as the master account (or with `as` credentials), returning status and parsed body. */
  v2: V2Caller;
  /** Call the control API. */
  control(method: string, path: string, body?: unknown): Promise<V2Answer>;
}

export interface V2Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface V2CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Raw body text, sent as is (for invalid-JSON tests). */
  rawBody?: string;
  /** Credentials to sign with; the master account's by default. */
  as?: { apiKey: string; apiSecret: string };
  /** Send this token instead of signing one (null: no token at all). */
  token?: string | null;
}

export type V2Caller = <T = any>(method: string, path: string, options?: V2CallOptions) => Promise<V2Answer<T>>;

/** The sandboxes this test process runs (startSandbox, startTestGateway): whose accounts `v2Token` can mint for. */
const running = new Set<SandboxState>();

/** `v2Token` mints for this sandbox's accounts until the test process ends (states are small, and a test runs few). */
export function rememberSandbox(state: SandboxState): void {
  running.add(state);
}

/**
 * A bearer token for v2 as the account whose legacy pair this is: an OAuth access token of the
 * account's server-to-server app, as its token endpoint would issue it, valid for `expiresInSeconds`
 * (negative: expired), taken from the in-process sandbox's state rather than over HTTP, for speed.
 * A pair no running sandbox's account has (an unknown key, a wrong secret) gets what such a client
 * could still send, a JWT signed with it, which today's v2 refuses.
 */
export function signV2Token(apiKey: string, apiSecret: string, expiresInSeconds = 60, sandbox?: SandboxState): Promise<string> {
  // Two sandboxes of one test may share a fixed pair: the caller's own sandbox is asked first.
  for (const state of sandbox ? [sandbox, ...running] : running) {
    const app = embeddedAppOf(state, apiKey, apiSecret);
    const client = app && state.oauthApps.authenticate(app.clientId, app.clientSecret);
    if (!client) continue;
    // Issued as if earlier, so that it ends `expiresInSeconds` from now rather than an hour from now.
    const issuedAtMs = state.now().getTime() + (expiresInSeconds - ACCESS_TOKEN_LIFE_SECONDS) * 1000;
    return Promise.resolve(state.oauthApps.issue(client, issuedAtMs).accessToken);
  }
  return signToken(apiKey, apiSecret, Math.floor(Date.now() / 1000) + expiresInSeconds);
}

/**
 * Start a sandbox on an ephemeral port. Limits are off unless asked for, so tests of behaviour
 * are not throttled; rate-limit tests pass `limits`.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const trafficLog = process.env.SANDBOX_TRAFFIC_LOG;
  const sandbox = createSandbox({ limits: false, ...(trafficLog ? { trafficLog } : {}), ...options });
  rememberSandbox(sandbox.state);
  const root = new Hono();
  mountSandbox(root, sandbox);
  const listening = await listen(root.fetch);

  const v2: V2Caller = async (method, path, opts = {}) => {
    const creds = opts.as ?? sandbox.credentials;
    const url = new URL(`${listening.url}/v2${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? await signV2Token(creds.apiKey, creds.apiSecret, 60, sandbox.state) : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body });
    return toAnswer(response);
  };

  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${listening.url}/sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return toAnswer(response);
  };

  return { ...listening, sandbox, v2, control };
}

async function toAnswer(response: Response): Promise<V2Answer> {
  const text = await response.text();
  let body: unknown = text;
  if (text && (response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  else if (!text) body = undefined;
  return { status: response.status, body, headers: response.headers };
}
