import { loadConfig } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { answerParent } from './child-ipc.js';

/**
 * The gateway under benchmark, in its own process: exactly `startGateway(loadConfig(env))` as
 * `npm start` runs it, configured by the same environment variables (V2_BASE_URL, V1_KEEP_ALIVE,
 * V1_RATE_LIMITS, V2_RATE_LIMITS, RATE_LIMIT_SCALE, REDIS_URL, UPSTREAM_* ...).
 *
 * Memory is reported over the IPC channel the runner forks it with, so nothing is added to the
 * gateway's HTTP surface: `{ type: 'memory' }` → a full GC (the runner starts it with --expose-gc)
 * then `{ type: 'memory', usage: process.memoryUsage() }`. `{ type: 'stop' }` closes it and exits
 * (which also writes the --cpu-prof profile when profiling).
 */

const gateway = await startGateway(loadConfig(process.env));
process.send?.({ type: 'ready', port: gateway.port, url: gateway.url });
if (!process.send) console.log(`bench gateway on ${gateway.url}/v1 → ${gateway.v2BaseUrl}`);

answerParent(() => gateway.close());
