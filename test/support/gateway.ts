import { loadConfig } from '../../src/config.js';
import { startGateway, type GatewayOverrides, type RunningGateway } from '../../src/gateway.js';
import type { Sandbox } from '../../src/sandbox/app.js';
import { rememberSandbox, signV2Token, type V2Answer, type V2CallOptions } from './sandbox.js';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CredentialEntry } from '../../src/upstream/auth/credential-map.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import type { RateLimitPlan } from '../../src/v2-contract/rate-limit-plans.js';
import { LOG_DIR_ENV, LOG_SUFFIX, SECRETS_SUFFIX } from './log-audit.js';

/**
 * A real gateway over its real embedded sandbox, on an ephemeral loopback port. `v1(path, params)`
 * posts a urlencoded form exactly as a legacy client does (credentials added unless given) and
 * returns the parsed answer; `v2(...)` calls the same sandbox directly, for side-by-side checks.
 */
export interface TestGateway extends RunningGateway {
  sandbox: Sandbox;
  credentials: { api_key: string; api_secret: string };
  v1<T = any>(path: string, params?: Record<string, string | number | boolean | string[] | undefined>, options?: V1CallOptions): Promise<T>;
  /** Like v1 but returns status, headers and the raw text too. */
  v1Raw(
    path: string,
    params?: Record<string, string | number | boolean | string[] | undefined>,
    options?: V1CallOptions,
  ): Promise<{ status: number; headers: Headers; text: string; body: any }>;
  v2<T = any>(method: string, path: string, options?: V2CallOptions): Promise<V2Answer<T>>;
  control(method: string, path: string, body?: unknown): Promise<V2Answer>;
}

export interface V1CallOptions {
  /** Leave out api_key/api_secret (to test their absence). */
  noCredentials?: boolean;
  /** Send the params in the query string of a POST with an empty body instead. */
  inQuery?: boolean;
}

export async function startTestGateway(env: Record<string, string> = {}, overrides: GatewayOverrides = {}): Promise<TestGateway> {
  // Limits off unless a test asks for them: behaviour tests must not be throttled by their own pace.
  const config = loadConfig({
    PORT: '0',
    SANDBOX_RATE_LIMITS: 'off',
    V1_RATE_LIMITS: 'off',
    V2_RATE_LIMITS: 'off',
    ...testLogEnv(),
    ...env,
  });
  const gateway = await startGateway(config, overrides);
  if (!gateway.sandbox) throw new Error('startTestGateway needs the embedded sandbox (no V2_BASE_URL)');
  const sandbox = gateway.sandbox;
  rememberSandbox(sandbox.state);
  rememberSecret(sandbox.credentials.apiSecret);
  rememberSecret(sandbox.oauthApp.clientSecret);
  const credentials = { api_key: sandbox.credentials.apiKey, api_secret: sandbox.credentials.apiSecret };

  const v1Raw: TestGateway['v1Raw'] = async (path, params = {}, options = {}) => {
    const form = new URLSearchParams();
    const all = options.noCredentials ? params : { ...credentials, ...params };
    for (const [key, value] of Object.entries(all)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) form.append(`${key}[]`, item);
      else form.append(key, String(value));
    }
    const url = `${gateway.url}/v1${path}${options.inQuery ? `?${form.toString()}` : ''}`;
    const response = await fetch(url, {
      method: 'POST',
      headers: options.inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
      body: options.inQuery ? undefined : form.toString(),
    });
    const text = await response.text();
    let body: any = text;
    if ((response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: response.status, headers: response.headers, text, body };
  };

  const v2: TestGateway['v2'] = async (method, path, opts = {}) => {
    const creds = opts.as ?? sandbox.credentials;
    const url = new URL(`${gateway.v2BaseUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const token = opts.token === undefined ? await signV2Token(creds.apiKey, creds.apiSecret, 60, sandbox.state) : opts.token;
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };

  const control: TestGateway['control'] = async (method, path, body) => {
    const response = await fetch(`${gateway.url}/sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };

  return {
    ...gateway,
    sandbox,
    credentials,
    v1: async (path, params, options) => (await v1Raw(path, params, options)).body,
    v1Raw,
    v2,
    control,
  };
}

/** A credentials file with no key in it yet (the sandbox's account id is known only once it runs). */
export function emptyCredentialFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'v1gate-credentials-')), 'credentials.json');
  writeFileSync(file, '[]\n', { mode: 0o600 });
  return file;
}

/** Maps the running sandbox's key (its v1 secret as a hash) to its OAuth app in `file`, at `plan` if given, and reloads the gateway's map. */
export async function mapSandboxKeyToOAuth(
  gateway: RunningGateway,
  file: string,
  extra: readonly CredentialEntry[] = [],
  plan?: RateLimitPlan,
): Promise<void> {
  const { credentials, oauthApp } = gateway.sandbox!;
  const entry: CredentialEntry = {
    api_key: credentials.apiKey,
    secret_hash: await hashSecret(credentials.apiSecret),
    previous_secrets: [],
    v2: { kind: 'oauth', account_id: oauthApp.accountId, client_id: oauthApp.clientId, client_secret: oauthApp.clientSecret },
    ...(plan ? { plan } : {}),
  };
  writeFileSync(file, JSON.stringify([entry, ...extra]), { mode: 0o600 });
  const reloaded = gateway.reloadCredentials();
  if (!reloaded.ok) throw new Error(`the test credentials file was refused: ${reloaded.problems.join('; ')}`);
}

/**
 * Test gateways log (at debug, the most) to the suite's log folder, which the global teardown
 * checks for secrets; without that folder (a file run outside vitest's setup) they stay silent.
 */
export function testLogEnv(): Record<string, string> {
  const dir = process.env[LOG_DIR_ENV];
  const traffic = process.env.SANDBOX_TRAFFIC_LOG;
  return {
    ...(dir ? { LOG_LEVEL: 'debug', LOG_FILE: join(dir, `${process.pid}${LOG_SUFFIX}`) } : { LOG_LEVEL: 'silent' }),
    // The suite's v2 traffic, checked against today's documents after the run (global-setup.ts).
    ...(traffic ? { SANDBOX_TRAFFIC_LOG: traffic } : {}),
  };
}

/** Tells the log audit a secret that no log line may contain. */
export function rememberSecret(secret: string): void {
  const dir = process.env[LOG_DIR_ENV];
  if (dir) appendFileSync(join(dir, `${process.pid}${SECRETS_SUFFIX}`), `${secret}\n`);
}
