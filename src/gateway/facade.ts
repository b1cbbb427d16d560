import { Hono } from 'hono';
import { createShadow } from '../compare/shadow.js';
import { endpointFacts } from '../compare/endpoint-facts.js';
import { configuredCutover } from '../compare/cutover-setup.js';
import type { GatewayMetrics } from '../ops/metrics.js';
import { shadowMetrics } from '../ops/shadow-metrics.js';
import { statusKey } from '../ops/status.js';
import type { RateLimiters } from '../ratelimit/index.js';
import { v2CredentialsCheck } from '../sdk/credentials-check.js';
import { createSignatureApp } from '../sdk/signature-app.js';
import type { DownloadLinkMaker, EndpointDefinition } from '../translators/kit/define.js';
import type { V2Client } from '../upstream/client.js';
import type { V2Credentials } from '../upstream/auth/v2-credentials.js';
import type { LocalCheck } from '../upstream/auth/local-check.js';
import type { PairProver } from '../upstream/pair-proof.js';
import type { V2Budgets } from '../upstream/outbound-budget.js';
import { fanOutCheck } from '../upstream/outbound-gate.js';
import { createV1App } from '../v1-facade/app.js';
import type { InboundGate } from '../v1-steps/admit.js';
import { createDownloads } from '../downloads/index.js';
import { downloadCredentialsOf } from '../downloads/credentials.js';
import type { CallObserver, OwnTimeObserver } from '../v1-steps/observe.js';
import type { Parts } from './parts.js';
import type { SandboxAccounts } from './v2-side.js';

/** The ways in that do work for a client: the v1 facade (or shadow mode around it), the SDK signer, the download links. */

export type V1App = ReturnType<typeof createV1App>;
export type Shadow = ReturnType<typeof createShadow>;

/** POST /sdk/signature (the meeting SDK join signer: today's JWT for a key with an SDK app, else 1.9.1's), before the v1 routes. */
export function signerPart(
  { config, log }: Parts,
  v2: V2Client,
  inbound: InboundGate | undefined,
  pairs: PairProver,
  credentials: V2Credentials,
): Hono {
  return createSignatureApp({
    credentials: v2CredentialsCheck(v2, pairs, credentials.local),
    inbound,
    maxBodyBytes: config.maxBodyBytes,
    allowedApiKeys: config.allowedApiKeys,
    sdkAppOf: (apiKey) => credentials.sdkAppOf(apiKey),
    v2,
    logger: log.logger,
  });
}

/** The v1 facade over the v2 client. */
export function createFacade(
  { config, overrides, log, tracing, access }: Parts,
  deps: {
    endpoints: readonly EndpointDefinition[];
    v2: V2Client;
    limiters: RateLimiters;
    /** Whose v2 budgets, at which plan, each pair's calls spend: what a fan-out is sized by. */
    budgets: V2Budgets;
    inbound: InboundGate | undefined;
    pairs: PairProver;
    local: LocalCheck | undefined;
    ownTime: OwnTimeObserver;
    downloadLinks: DownloadLinkMaker;
  },
  observers: readonly CallObserver[],
) {
  const { limiters } = deps;
  return createV1App({
    endpoints: deps.endpoints,
    v2: deps.v2,
    pairs: deps.pairs,
    ...(deps.local ? { localCheck: deps.local } : {}),
    inbound: deps.inbound,
    outboundMaxWaitMs: config.rateLimits.v2.maxWaitMs,
    // Reports fan out: refuse at once a fan-out the v2 limits cannot admit within the wait.
    ...(config.rateLimits.v2.enabled && !overrides.outbound
      ? {
          fanOut: fanOutCheck(limiters.outbound, deps.budgets),
        }
      : {}),
    allowedApiKeys: config.allowedApiKeys,
    body: { maxBytes: config.maxBodyBytes, idleTimeoutMs: config.bodyTimeoutMs },
    keepAlive: config.keepAlive,
    observers,
    ownTime: deps.ownTime,
    auxCacheTtlMs: config.cache.auxTtlMs,
    logger: log.logger,
    tracer: tracing,
    downloadLinks: deps.downloadLinks,
    addresses: (c) => access.addresses(c),
  });
}

/** Recording files through v1gate's signed links (src/downloads/): the links' maker, and their route. */
export function downloadsPart(
  { config, address, resources, access, overrides }: Parts,
  credentials: V2Credentials,
  sandboxAccounts: SandboxAccounts | undefined,
) {
  const downloads = createDownloads({
    config: config.downloads,
    v2Origin: () => new URL(address.upstreamUrl).origin,
    v2BaseUrl: () => address.upstreamUrl,
    authorizer: credentials.authorizer,
    fromTrustedProxy: (c) => access.fromTrustedProxy(c),
    ...(overrides.downloadClock ? { now: overrides.downloadClock } : {}),
    credentialsOf: downloadCredentialsOf((apiKey) => credentials.identityOf(apiKey), sandboxAccounts?.secretOf),
    timeoutMs: config.upstream.timeoutMs,
    connections: config.upstream.connections,
  });
  resources.add(() => downloads.close());
  return downloads;
}

/** Shadow mode (V1_PRIMARY_URL): the real v1 answers; v1gate's own answers are compared behind it. */
export function shadowPart(
  { config, resources, secrets, access }: Parts,
  apps: { v1App: V1App; writer: V1App | undefined },
  endpoints: readonly EndpointDefinition[],
  metrics: GatewayMetrics,
) {
  const { v1App, writer } = apps;
  const facts = endpointFacts(endpoints);
  const settings = config.shadow;
  const shadow = createShadow({
    primaryUrl: settings.primaryUrl!,
    sample: settings.sample,
    promotedSample: settings.promotedSample,
    cutover: configuredCutover({ ...settings, primaryUrl: settings.primaryUrl!, redisUrl: config.rateLimits.redis.url }, facts),
    facts,
    candidate: (request, env) => v1App.fetch(request, env),
    writer: writer && ((request, env) => writer.fetch(request, env)),
    body: { maxBytes: config.maxBodyBytes, idleTimeoutMs: config.bodyTimeoutMs },
    timeoutMs: config.upstream.timeoutMs,
    maxComparedBytes: settings.maxComparedBytes,
    reportAllowed: (c) => access.judge(c, statusKey(config.ops.statusToken)).allowed,
    secrets,
  });
  resources.add(() => shadow.close());
  for (const metric of shadowMetrics(() => shadow.stats())) metrics.registerCollector(metric);
  const app = new Hono();
  app.all('*', shadow.handle);
  return { app, shadow };
}
