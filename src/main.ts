import { format } from 'node:util';
import cluster from 'node:cluster';
import { checkConfiguration, renderReport } from './cli/check.js';
import { commandOf, helpText } from './cli/help.js';
import { packageVersion } from './shared/package-version.js';
import { removePidFile, sendReload, writePidFile } from './cli/pid-file.js';
import { describeStartError } from './cli/start-errors.js';
import { hangUpMeans, onControlSignals } from './cli/hang-up.js';
import { jwtSigningProblems } from './cli/jwt-signing.js';
import { downloadKeyProblems, downloadKeyWarnings } from './cli/download-key.js';
import { startFileProblems, startFiles } from './cli/start-files.js';
import { runPrimary } from './cluster/primary.js';
import { runWorker } from './cluster/worker.js';
import { ConfigError, loadConfig, type GatewayConfig } from './config.js';
import { startGateway } from './gateway.js';
import { routeConsoleThrough } from './ops/library-console.js';
import { startLines, startLinesAreJson, type StartLines } from './ops/start-lines.js';
import { announceSandbox, listenedOn } from './sandbox-banner.js';
import { describeUnknownSetting, unknownSettings } from './unknown-settings.js';

/**
 * `npm start` (`node dist/src/main.js`): the gateway on PORT (default 8080), over the embedded
 * sandbox unless V2_BASE_URL is set; with WORKERS=N (or auto), N processes on that port. Also
 * `check`, `reload`, `--help` and `--version` (src/cli/). The banner and the command line's answers are
 * written with console; everything the running gateway says goes through its logger.
 */
async function main(): Promise<void> {
  const command = commandOf(process.argv.slice(2));
  switch (command.run) {
    case 'help':
      process.stdout.write(helpText());
      return;
    case 'version':
      process.stdout.write(`v1gate ${packageVersion()}\n`);
      return;
    case 'usage-error':
      console.error(`v1gate: ${command.message}`);
      process.exitCode = 2;
      return;
    case 'check': {
      const report = await checkConfiguration(process.env);
      process.stdout.write(renderReport(report));
      process.exitCode = report.problems.length > 0 ? 1 : 0;
      return;
    }
    case 'reload':
      process.exitCode = sendReload(process.env) ? 0 : 1;
      return;
    case 'start':
      return start();
  }
}

async function start(): Promise<void> {
  const config = loadConfig();
  // WORKERS>1: src/cluster/ (one primary, N workers on the port); otherwise exactly one process.
  if (cluster.isWorker) return runWorker(config);
  const lines = startLines(config.ops.logFormat === 'json');
  for (const unknown of unknownSettings(process.env)) lines.warn(`v1gate: warning: ${describeUnknownSetting(unknown)}`);
  for (const warning of downloadKeyWarnings(config)) lines.warn(`v1gate: warning: ${warning}`);
  // Each file tried as it will be opened, so a bad one is a line naming its setting, not a library's stack trace.
  const fileProblems = [...jwtSigningProblems(config), ...downloadKeyProblems(config), ...startFileProblems(startFiles(config))];
  if (fileProblems.length > 0) throw new ConfigError(fileProblems);
  if (config.ops.pidFile) writePidFile(config.ops.pidFile);
  if (config.workers > 1) return runPrimary(config, lines);
  return runSingle(config, lines);
}

async function runSingle(config: GatewayConfig, lines: StartLines): Promise<void> {
  // A library's own console warnings (ioredis's, as it connects) become log lines like every other.
  const gateway = await startGateway(config, { onLogger: routeConsoleThrough });
  const url = `${listenedOn(config.host, gateway.port)}/v1`;
  lines.say(`v1gate listening on ${url} (pid ${process.pid})`, { url });
  lines.say(`  upstream v2: ${gateway.v2BaseUrl}${gateway.sandbox ? ' (embedded sandbox)' : ''}`);
  if (gateway.sandbox) announceSandbox(config, gateway.sandbox, `${gateway.url}/v1`, lines);
  // The first signal drains (calls in flight are answered, new ones refused, /readyz 503) for up
  // to SHUTDOWN_GRACE_MS; a second one stops at once. A HUP stops or reloads as ON_SIGHUP says.
  const stop = (signal: NodeJS.Signals) => {
    if (gateway.draining) process.exit(1);
    gateway.logger.info({ signal, graceMs: config.shutdownGraceMs }, 'draining: calls in flight are answered, new ones refused');
    const began = Date.now();
    gateway.drain(config.shutdownGraceMs).then(
      () => {
        const drainedMs = Date.now() - began;
        lines.say(`v1gate stopped (pid ${process.pid}): drained in ${drainedMs} ms`, { drainedMs });
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  // A reload reads V2_CREDENTIALS_FILE again: a rotated legacy secret takes effect without a restart.
  onControlSignals(hangUpMeans(config.ops.onSighup, process.env), process.env, { stop, reload: () => gateway.reloadCredentials() });
}

main().catch((error: unknown) => {
  // A setting that stops the start is one clear line (per problem), no trace; a bug keeps its trace.
  if (process.env.PID_FILE) removePidFile(process.env.PID_FILE);
  const problem = describeStartError(error);
  // Straight to stderr, not the console: it may be routed through a logger the failed start already
  // closed. LOG_FORMAT read from the environment: the configuration may be what failed.
  startLines(startLinesAreJson(process.env)).fail(problem ? `v1gate: cannot start: ${problem}` : format(error));
  process.exit(1);
});
