import { Hono } from 'hono';
import { createSandbox, mountSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/app.js';
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

/** Sign a v2 JWT the way the spec says: HS256, iss = API key, short exp. */
export function signV2Token(apiKey: string, apiSecret: string, expiresInSeconds = 60): Promise<string> {
  return signToken(apiKey, apiSecret, Math.floor(Date.now() / 1000) + expiresInSeconds);
}

/**
 * Start a sandbox on an ephemeral port. Limits are off unless asked for, so tests of behaviour
 * are not throttled; rate-limit tests pass `limits`.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox({ limits: false, ...options });
  const root = new Hono();
  mountSandbox(root, sandbox);
  const listening = await listen(root.fetch);

  const v2: V2Caller = async (method, path, opts = {}) => {
    const creds = opts.as ?? sandbox.credentials;
    const url = new URL(`${listening.url}/v2${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? await signV2Token(creds.apiKey, creds.apiSecret) : opts.token;
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
