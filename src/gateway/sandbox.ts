import { Hono } from 'hono';
import { forwardToHub } from './forward-to-hub.js';
import { createSandbox, mountSandbox, type Sandbox } from '../sandbox/app.js';
import { keepSandboxData } from '../sandbox/persist.js';
import { listenOnLoopback } from '../http/server.js';
import { sandboxControlGuard } from '../shared/private-access.js';
import { prefixOf } from '../shared/route-owners.js';
import { serverOptions, type ClusterWorkerLinks, type Parts } from './parts.js';
import { unknownPathAnswer } from './answers.js';
import { guardDeadLetters } from './webhooks.js';

/**
 * The embedded sandbox (no V2_BASE_URL) as a part of the public app, its own loopback listener,
 * and, in a cluster worker, the forwarding of what exists once to the primary.
 */

/** The sandbox's control API, a private page wherever it is served. */
const CONTROL_ROUTES = `${prefixOf('sandboxControl')}/*`;

/** No V2_BASE_URL: the embedded sandbox at /v2 (and its control API at /sandbox) on this server. */
export function sandboxPart({ config, overrides, secrets, log, resources, access }: Parts): { app: Hono; sandbox: Sandbox } {
  const sandbox = createSandbox({
    apiKey: config.sandbox.apiKey,
    apiSecret: config.sandbox.apiSecret,
    oauthClientId: config.sandbox.oauthClientId,
    oauthClientSecret: config.sandbox.oauthClientSecret,
    limits: overrides.sandboxLimits ?? (config.sandbox.rateLimits ? undefined : false),
    v2Auth: config.sandbox.v2Auth,
    trafficLog: config.sandbox.trafficLog,
    onUnexpectedError: (error) => log.logger.error({ err: error }, 'sandbox: unexpected error'),
  });
  secrets.add([sandbox.credentials.apiSecret, sandbox.oauthApp.clientSecret]);
  if (config.sandbox.dataFile) {
    const kept = keepSandboxData(sandbox.state, sandbox.master, config.sandbox.dataFile, (problem) => log.logger.warn(problem));
    if (kept.loaded) log.logger.info({ file: config.sandbox.dataFile, ...kept.loaded }, 'sandbox: data loaded from SANDBOX_DATA_FILE');
    else log.logger.info({ file: config.sandbox.dataFile }, 'sandbox: no data file yet; SANDBOX_DATA_FILE will keep this data');
    resources.add(() => kept.close());
  }
  const app = new Hono();
  if (!config.sandbox.public) app.use(CONTROL_ROUTES, sandboxControlGuard(access));
  mountSandbox(app, sandbox);
  return { app, sandbox };
}

/**
 * The embedded sandbox's own loopback listener, which the gateway's v2 client calls (and the
 * sandbox's events reach the webhook intake through): a flood of the public listener's
 * connections, up to its cap, leaves the gateway's own calls their connections. Opened before the
 * public port, closed after the v2 client (closers run newest first).
 */
export function sandboxListener({ config, address, resources, access }: Parts, sandbox: Sandbox) {
  const app = new Hono();
  // Loopback only, but a page reaches loopback by DNS rebinding: its private routes are guarded as the public listener's.
  app.use(CONTROL_ROUTES, sandboxControlGuard(access));
  guardDeadLetters(app, access);
  mountSandbox(app, sandbox);
  let listening: Awaited<ReturnType<typeof listenOnLoopback>> | undefined;
  resources.add(() => listening?.close());
  return {
    app,
    async open(): Promise<void> {
      app.notFound(unknownPathAnswer);
      listening = await listenOnLoopback(app.fetch, { ...serverOptions(config), keepAlive: true });
      address.sandboxListened(listening.origin);
    },
  };
}

/**
 * A cluster worker forwards what exists once to the primary. The loopback-only rule of the sandbox
 * control API is applied here, where the real caller is known (the primary sees only workers).
 */
export function hubPart({ config, access }: Parts, cluster: ClusterWorkerLinks): Hono {
  const app = new Hono();
  if (cluster.hubPaths.includes(prefixOf('sandboxControl')) && !config.sandbox.public) app.use(CONTROL_ROUTES, sandboxControlGuard(access));
  if (cluster.hubPaths.includes(prefixOf('webhooks'))) guardDeadLetters(app, access);
  forwardToHub(app, cluster.hubOrigin, cluster.hubPaths);
  return app;
}
