import cluster from 'node:cluster';
import { runPrimary } from './cluster/primary.js';
import { runWorker } from './cluster/worker.js';
import { ConfigError, loadConfig } from './config.js';
import { startGateway } from './gateway.js';
import { announceSandbox } from './sandbox-banner.js';
import { describeUnknownSetting, unknownSettings } from './unknown-settings.js';

/**
 * `npm start`: the gateway on PORT (default 8080), over the embedded sandbox unless V2_BASE_URL is
 * set; with WORKERS=N (or auto), N processes on that port.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!cluster.isWorker) for (const unknown of unknownSettings(process.env)) console.warn(`v1gate: ${describeUnknownSetting(unknown)}`);
  // WORKERS>1: src/cluster/ (one primary, N workers on the port); otherwise exactly one process.
  if (cluster.isWorker) return runWorker(config);
  if (config.workers > 1) return runPrimary(config);
  const gateway = await startGateway(config);
  console.log(`v1gate listening on ${gateway.url}/v1`);
  console.log(`  upstream v2: ${gateway.v2BaseUrl}${gateway.sandbox ? ' (embedded sandbox)' : ''}`);
  if (gateway.sandbox) announceSandbox(config, gateway.sandbox.credentials, `${gateway.url}/v1`);
  // The first signal drains (calls in flight are answered, new ones refused, /readyz 503) for up
  // to SHUTDOWN_GRACE_MS; a second one stops at once.
  const stop = (signal: NodeJS.Signals) => {
    if (gateway.draining) process.exit(1);
    console.log(`v1gate: ${signal}, draining (at most ${config.shutdownGraceMs} ms)`);
    gateway.drain(config.shutdownGraceMs).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
