import { loadConfig } from '../src/config.js';
import { startGateway, type GatewayOverrides } from '../src/gateway.js';
import { createRateLimiters, rateLimitHeaders, readRateLimitConfig, type RateLimiters } from '../src/ratelimit/index.js';
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
 *
 * BENCH_INJECT_LIMITERS=1: while src/gateway.ts does not build the rate limiters itself yet, the
 * benchmark builds them from the same environment variables with src/ratelimit and passes them
 * in as overrides (the runner sets this only when src/gateway.ts does not mention ratelimit).
 */

const config = loadConfig(process.env);
const overrides: GatewayOverrides = {};
let limiters: RateLimiters | undefined;
if (process.env.BENCH_INJECT_LIMITERS === '1') {
  limiters = createRateLimiters(readRateLimitConfig(process.env));
  const { inbound, outbound } = limiters;
  overrides.inbound = {
    async check(apiKey, v1Path) {
      // The facade passes the canonical path without `/v1`; the limit classes name `/v1/...` paths.
      const decision = await inbound.check(apiKey, v1Path.startsWith('/v1/') ? v1Path : `/v1${v1Path}`);
      return { allowed: decision.allowed, headers: rateLimitHeaders(decision) };
    },
  };
  overrides.outbound = {
    schedule: (apiKey, method, path, task) => outbound.schedule(apiKey, method, path, task),
    penalize: (apiKey, method, path, ms) => void outbound.penalize(apiKey, method, path, ms),
  };
}

const gateway = await startGateway(config, overrides);
process.send?.({ type: 'ready', port: gateway.port, url: gateway.url, injectedLimiters: limiters !== undefined });
if (!process.send) console.log(`bench gateway on ${gateway.url}/v1 → ${gateway.v2BaseUrl}`);

answerParent(async () => {
  await gateway.close();
  await limiters?.close();
});
