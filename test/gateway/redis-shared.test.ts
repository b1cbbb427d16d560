import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { startRedis, type RunningRedis } from '../support/redis.js';

/**
 * Several gateway processes sharing their v1 limits through one real redis-server: together they
 * admit what one would, and when Redis stops mid-run they do what docs/decisions.md says
 * (fail-open: each process keeps its own limits; fail-closed: refuse until Redis is back).
 */

const KEY = 'shared-key';
const SECRET = 'shared-secret';
let redis: RunningRedis;
let first: GatewayProcess;
let second: GatewayProcess;
let closed: GatewayProcess;

beforeAll(async () => {
  redis = await startRedis();
  const common = { REDIS_URL: redis.url, V1_RATE_LIMITS: 'on', V2_RATE_LIMITS: 'off', SANDBOX_RATE_LIMITS: 'off' };
  first = await startGatewayProcess({ ...common, SANDBOX_API_KEY: KEY, SANDBOX_API_SECRET: SECRET });
  const upstream = { ...common, V2_BASE_URL: `${first.url}/v2` };
  [second, closed] = await Promise.all([
    startGatewayProcess(upstream),
    startGatewayProcess({ ...upstream, RATE_LIMIT_STORE_FAILURE: 'closed', RATE_LIMIT_REDIS_PREFIX: 'closed:' }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop(), closed?.stop()]);
  await redis?.close();
});

async function call(gateway: GatewayProcess, prefix = ''): Promise<any> {
  const response = await fetch(`${gateway.url}/v1/user/checkemail`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: KEY, api_secret: SECRET, email: `${prefix}nobody@example.com` }),
  });
  return response.json();
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two gateway processes sharing Redis', () => {
  it('admit together what one process would, not twice as much', async () => {
    // Warm both processes (first requests compile the whole path), then let the bucket refill.
    for (let i = 0; i < 3; i++) await Promise.all([call(first), call(second)]);
    // Separate buckets would admit about 20 (10 each): a flood must be quick enough to tell, so
    // one slowed by a busy machine is sent again (after the bucket has refilled) rather than read.
    let answers: any[] = [];
    let seconds = Infinity;
    for (let attempt = 0; attempt < 5 && seconds >= 0.8; attempt++) {
      await pause(1100);
      const started = Date.now();
      answers = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 ? first : second)));
      seconds = (Date.now() - started) / 1000;
    }
    const admitted = answers.filter((a) => !a.error).length;
    expect(seconds, 'no flood of five was quick enough to tell shared buckets from separate ones').toBeLessThan(0.8);
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(10 + Math.ceil(seconds * 10) + 1);
    expect(answers.filter((a) => a.error?.code === 403).length).toBe(40 - admitted);
    // Every decision was Redis's: no process fell back to its own buckets.
    expect(first.output() + second.output()).not.toMatch(/shared store unavailable/);
  });

  it('when Redis stops: fail-open keeps serving within its own limits, fail-closed refuses, both recover', async () => {
    await redis.stop();
    await pause(1100);
    const open = await Promise.all(Array.from({ length: 5 }, () => call(first)));
    expect(open.every((a) => a.existed_email === false)).toBe(true);
    const refused = await Promise.all(Array.from({ length: 3 }, () => call(closed)));
    expect(refused.every((a) => a.error?.code === 403)).toBe(true);
    // Fail-open falls back to this process's own buckets: a flood is still limited.
    const flood = await Promise.all(Array.from({ length: 30 }, () => call(first)));
    expect(flood.some((a) => a.error?.code === 403)).toBe(true);

    await redis.start();
    await pause(1500); // reconnect, and the skip-Redis window after a failure
    const back = await call(closed);
    expect(back).toEqual({ existed_email: false });
    expect(closed.output()).not.toMatch(/Unhandled|TypeError/);
  });
});
