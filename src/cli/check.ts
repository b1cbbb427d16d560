import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { ConfigError, loadConfig, type GatewayConfig } from '../config.js';
import type { Env } from '../shared/env.js';
import { defaultTokenUrlOf } from '../upstream/auth/v2-credentials.js';
import { askAppScopes, unservedSummary } from '../ops/app-scopes.js';
import { describeUnknownSetting, unknownSettings } from '../unknown-settings.js';
import { loadSubscriptions } from '../webhooks/subscriptions.js';
import { describeStartError } from './start-errors.js';
import { jwtSigningProblems } from './jwt-signing.js';
import { downloadKeyProblems, downloadKeyWarnings } from './download-key.js';
import { startFileProblems, startFiles } from './start-files.js';

/**
 * `node dist/src/main.js check`: the whole configuration checked without starting, every problem
 * listed (Kong's `kong config parse`, KrakenD's `krakend check`). The variables first; when they
 * are valid, what they name: the files (read or written by the gateway), the port, Redis and the
 * v2 service (and the real v1 of shadow mode), each reachable within READY_TIMEOUT_MS. A problem
 * names its variable and never repeats a secret: a URL is shown as its scheme, host and port.
 */

export interface CheckReport {
  /** One line each; any problem makes `check` exit 1. */
  problems: string[];
  /** Settings that look misspelt: named, but not a reason to fail. */
  warnings: string[];
  /** What the configuration sets up (or, for bad variables, what could not be checked). */
  summary: string[];
}

export async function checkConfiguration(env: Env): Promise<CheckReport> {
  const warnings = unknownSettings(env).map(describeUnknownSetting);
  let config: GatewayConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems = error.problems.map((p) => `${p.variable}: ${p.message}`);
    return { problems, warnings, summary: ['the files, the port, Redis and the v2 service are checked once every variable is valid'] };
  }
  const scopeNotes = scopeWarnings(config);
  const problems = [
    ...[...jwtSigningProblems(config), ...downloadKeyProblems(config)].map((p) => `${p.variable}: ${p.message}`),
    ...fileProblems(config),
    ...(
      await Promise.all([
        portProblem(config),
        config.rateLimits.redis.url ? redisProblem(config.rateLimits.redis.url, config.ops.readyTimeoutMs) : undefined,
        config.v2BaseUrl ? httpProblem('V2_BASE_URL', 'the v2 service', config.v2BaseUrl, config.ops.readyTimeoutMs) : undefined,
        config.shadow.primaryUrl
          ? httpProblem('V1_PRIMARY_URL', 'the real v1', config.shadow.primaryUrl, config.ops.readyTimeoutMs)
          : undefined,
        ...tokenUrlsOf(config).map((url) => httpProblem('V2_CREDENTIALS_FILE', 'the OAuth token endpoint', url, config.ops.readyTimeoutMs)),
      ])
    ).filter((p): p is string => p !== undefined),
  ];
  return { problems, warnings: [...warnings, ...downloadKeyWarnings(config), ...(await scopeNotes)], summary: summaryOf(config) };
}

/**
 * The v1 endpoints each mapped OAuth app cannot serve for want of scopes, asking each for a token
 * (docs/scopes.md): a warning, since an integration may call only the endpoints its app serves.
 * An app that gets no token is left to the token endpoint's check above; over the embedded
 * sandbox, whose token endpoint is this process's own and not listening, nothing is asked.
 */
async function scopeWarnings(config: GatewayConfig): Promise<string[]> {
  const oauth = config.credentials.entries.filter((e) => e.v2.kind === 'oauth');
  const defaultTokenUrl = config.credentials.defaultTokenUrl ?? (config.v2BaseUrl ? defaultTokenUrlOf(config.v2BaseUrl) : undefined);
  if (oauth.length === 0 || !config.v2BaseUrl || defaultTokenUrl === undefined) return [];
  const reports = await askAppScopes(oauth, { defaultTokenUrl, timeoutMs: config.ops.readyTimeoutMs });
  return reports.flatMap((report) => {
    const unserved = unservedSummary(report);
    return unserved ? [`V2_CREDENTIALS_FILE: the app of ${report.apiKey} ${unserved}`] : [];
  });
}

/** The report as `check` prints it. */
export function renderReport(report: CheckReport): string {
  const lines: string[] = [];
  if (report.problems.length === 0) lines.push('v1gate check: the configuration is good.');
  else lines.push(`v1gate check: ${report.problems.length} problem(s):`, ...report.problems.map((p) => `  ${p}`));
  lines.push(...report.summary.map((s) => `  (${s})`));
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The OAuth token endpoints the credential map's apps use (reachable, like the v2 service; no token
 * is asked for). The embedded sandbox's is this process's own, not listening yet: nothing to check.
 */
function tokenUrlsOf(config: GatewayConfig): string[] {
  const fallback = config.credentials.defaultTokenUrl ?? (config.v2BaseUrl ? defaultTokenUrlOf(config.v2BaseUrl) : undefined);
  const urls = config.credentials.entries.flatMap((e) => (e.v2.kind !== 'oauth' ? [] : [e.v2.token_url ?? fallback]));
  return [...new Set(urls.filter((url): url is string => url !== undefined))];
}

/**
 * The files the configuration names, each opened as the start will open it (src/cli/start-files.ts).
 * The credentials file is read and checked by the configuration itself (src/upstream/auth/config.ts).
 */
function fileProblems(config: GatewayConfig): string[] {
  const problems = startFileProblems(startFiles(config)).map((p) => `${p.variable}: ${p.message}`);
  const subscriptions = config.webhooks.file ? subscriptionsProblem(config) : undefined;
  return subscriptions === undefined ? problems : [subscriptions, ...problems];
}

function subscriptionsProblem(config: GatewayConfig): string | undefined {
  try {
    loadSubscriptions(config.webhooks.file!, config.webhooks.anyPort);
    return undefined;
  } catch (error) {
    return describeStartError(error);
  }
}

/** The port can be listened on now (0 picks a free one: nothing to check). */
async function portProblem(config: GatewayConfig): Promise<string | undefined> {
  if (config.port === 0) return undefined;
  const server = createServer();
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(config.port, config.host, () => done());
    });
    return undefined;
  } catch (error) {
    return describeStartError(error, config);
  } finally {
    await new Promise((done) => server.close(done));
  }
}

/** Redis answers PING within the deadline (its password, if any, accepted). */
async function redisProblem(url: string, timeoutMs: number): Promise<string | undefined> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The connection's own error says why (ECONNREFUSED); connect() rejects only with "closed".
  let cause: unknown;
  redis.on('error', (error) => (cause = error));
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return `REDIS_URL: Redis at ${safeUrl(url)} does not answer (${reasonOf(cause ?? error)})`;
  } finally {
    redis.disconnect();
  }
}

/** Any HTTP answer proves the service reachable (a 401 or a 404 too). */
async function httpProblem(variable: string, what: string, url: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const answer = await request(url, { signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs });
    await answer.body.dump();
    return undefined;
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return `${variable}: ${what} at ${safeUrl(url)} does not answer (${timedOut ? `no answer within ${timeoutMs} ms` : reasonOf(error)})`;
  }
}

/** A URL as an error may show it: scheme, host and port, never a user, password, path or query. */
function safeUrl(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}`;
}

/** Why a connection failed, in words, from its error code (never its message, which may quote what was sent). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'no such host',
    EAI_AGAIN: 'the host name could not be resolved',
    ETIMEDOUT: 'timed out',
    ECONNRESET: 'connection reset',
    EHOSTUNREACH: 'host unreachable',
  };
  if (code && reasons[code]) return reasons[code];
  const message = error instanceof Error ? error.message : '';
  if (/NOAUTH|WRONGPASS|invalid password/i.test(message)) return 'the password was refused';
  if (/timed? ?out/i.test(message)) return 'timed out';
  return code ?? 'the connection failed';
}

function credentialSummary({ credentials }: GatewayConfig): string {
  if (!credentials.file) return 'each api_key signs its own v2 JWT (no V2_CREDENTIALS_FILE)';
  const oauth = credentials.entries.filter((e) => e.v2.kind === 'oauth').length;
  const others = credentials.only ? 'other keys refused' : 'other keys sign their own v2 JWT';
  return `${credentials.entries.length} mapped key(s), ${oauth} on OAuth; ${others}`;
}

function summaryOf(config: GatewayConfig): string[] {
  const limits = config.rateLimits.redis.url ? 'shared through Redis' : 'in memory';
  return [
    `listens on ${config.host}:${config.port === 0 ? '(any free port)' : config.port}${config.workers > 1 ? ` with ${config.workers} workers` : ''}`,
    `v2: ${config.v2BaseUrl ? safeUrl(config.v2BaseUrl) : 'the embedded sandbox'}`,
    `rate limits: v1 ${config.rateLimits.v1.enabled ? 'on' : 'off'}, v2 ${config.rateLimits.v2.enabled ? 'on' : 'off'}, ${limits}`,
    `webhooks: ${config.webhooks.file ? `on (${config.webhooks.redis.url ? 'Redis journal' : 'file journal'})` : 'off'}`,
    `shadow mode: ${config.shadow.primaryUrl ? `on, in front of ${safeUrl(config.shadow.primaryUrl)}` : 'off'}`,
    `credentials: ${credentialSummary(config)}`,
    `download links: ${downloadLinkSummary(config)}`,
  ];
}

function downloadLinkSummary({ downloads }: GatewayConfig): string {
  const key = downloads.key ? 'sealed with DOWNLOAD_URL_KEY' : 'sealed with a random key per process (DOWNLOAD_URL_KEY unset)';
  const life = downloads.ttlMs === undefined ? 'as long as the file exists' : `at least ${downloads.ttlMs / 1000} s (DOWNLOAD_URL_TTL_S)`;
  const previous = downloads.previous ? `, DOWNLOAD_URL_KEY_PREVIOUS read until ${new Date(downloads.previous.untilMs).toISOString()}` : '';
  return `${key}, working ${life}${previous}`;
}
