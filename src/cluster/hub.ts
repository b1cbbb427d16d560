import { Hono } from 'hono';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { GatewayConfig } from '../config.js';
import { webhookMetrics } from '../ops/webhook-metrics.js';
import { createSandbox, mountSandbox, type Sandbox } from '../sandbox/app.js';
import { unknownPathAnswer } from '../gateway/answers.js';
import { serverOptions } from '../gateway/parts.js';
import { keepSandboxData, type KeptData } from '../sandbox/persist.js';
import { listenOnLoopback } from '../http/server.js';
import { PrivateAccess, sandboxControlGuard } from '../shared/private-access.js';
import { prefixOf, ROUTES } from '../shared/route-owners.js';
import { startWebhooks, type Webhooks } from '../webhooks/index.js';

/**
 * What exists once per cluster, served by the primary on its own loopback port: the embedded
 * sandbox (stateful: N copies would be N different v2 services) and the webhook service. Workers
 * call the sandbox as their V2_BASE_URL and forward /v2, /sandbox and — with the file journal,
 * which only one process may own — /webhooks here.
 */

export interface Hub {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** Path prefixes workers forward here. */
  paths: string[];
  sandbox: Sandbox | undefined;
  webhooks: Webhooks | undefined;
  /** The primary's own metrics (webhook deliveries), merged into the cluster's /metrics. */
  registry: Registry;
  close(): Promise<void>;
}

/** undefined when nothing needs to exist once (V2_BASE_URL set and no webhooks). */
export async function startHub(config: GatewayConfig, logger: Logger): Promise<Hub | undefined> {
  const ownsJournal = Boolean(config.webhooks.file) && !config.webhooks.redis.url;
  if (config.v2BaseUrl && !ownsJournal) return undefined;
  const root = new Hono();
  const paths: string[] = [];
  let sandbox: Sandbox | undefined;
  let kept: KeptData | undefined;
  if (!config.v2BaseUrl) {
    sandbox = createSandbox({
      apiKey: config.sandbox.apiKey,
      apiSecret: config.sandbox.apiSecret,
      oauthClientId: config.sandbox.oauthClientId,
      oauthClientSecret: config.sandbox.oauthClientSecret,
      limits: config.sandbox.rateLimits ? undefined : false,
      v2Auth: config.sandbox.v2Auth,
      trafficLog: config.sandbox.trafficLog,
      onUnexpectedError: (error) => logger.error({ err: error }, 'sandbox: unexpected error'),
    });
    // Loopback only, but a page the operator opens reaches loopback by DNS rebinding: the control
    // API is guarded here as on every listener of the sandbox. Workers forward it with this port's
    // own Host and the caller's forwarding headers, having judged both: they are its trusted proxies.
    const access = new PrivateAccess({ hosts: [], trustedProxies: [...config.ops.privateAccess.trustedProxies, '127.0.0.0/8', '::1'] });
    if (!config.sandbox.public) root.use(`${prefixOf('sandboxControl')}/*`, sandboxControlGuard(access));
    mountSandbox(root, sandbox);
    paths.push(...ROUTES.prefixesOf('sandbox'));
    if (config.sandbox.dataFile) {
      kept = keepSandboxData(sandbox.state, sandbox.master, config.sandbox.dataFile, (problem) => logger.warn(problem));
    }
  }
  // With REDIS_URL the journal is shared and each worker runs its own webhook consumer; the
  // primary then has none, and the sandbox sends its events to the workers' port (see primary.ts).
  const webhooks = ownsJournal ? startWebhooks(config.webhooks, logger) : undefined;
  if (webhooks) {
    root.route('/', webhooks.routes);
    paths.push(...ROUTES.prefixesOf('webhooks'));
  }
  // A path no part answers (a worker forwards all of /webhooks) is answered as one process answers it.
  root.notFound(unknownPathAnswer);
  const { origin, close } = await listenOnLoopback(root.fetch, { ...serverOptions(config), keepAlive: true });
  if (sandbox && webhooks && config.webhooks.token)
    sandbox.state.events.subscribe('*', { url: `${origin}/webhooks/v2`, token: config.webhooks.token });
  const registry = new Registry();
  if (webhooks) for (const metric of webhookMetrics(() => webhooks.stats())) registry.registerMetric(metric);
  return {
    origin,
    paths,
    sandbox,
    webhooks,
    registry,
    async close() {
      webhooks?.close();
      await close();
      kept?.close();
    },
  };
}
