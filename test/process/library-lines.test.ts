import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RunningRedis } from '../support/redis.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * Every log line a gateway process writes is JSON, its libraries' included. ioredis warns with a
 * bare console.warn("[WARN] ...") when a password is given to a Redis that asks none: a real
 * gateway process on a real redis-server, its output read line by line. Only the start banner
 * (the command line's own two lines, over a v2 of its own: no sandbox banner) and the stop line
 * are plain text.
 */

let redis: RunningRedis;
let gateway: GatewayProcess;
beforeAll(async () => {
  redis = await startRedis();
  const url = new URL(redis.url);
  url.password = 'a-password-this-redis-never-asked-for';
  gateway = await startGatewayProcess({
    REDIS_URL: url.toString(),
    V1_RATE_LIMITS: 'on',
    LOG_LEVEL: 'info',
    V2_BASE_URL: 'http://127.0.0.1:9/v2',
    DOWNLOAD_URL_KEY: 'ab'.repeat(32),
  });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await redis?.close();
});

const BANNER = /^(v1gate listening on | {2}upstream v2: |v1gate stopped )/;

describe("a library's console warning", () => {
  it('is a JSON log line at warn, like every other line', { timeout: 30_000 }, async () => {
    for (let waited = 0; waited < 10_000 && !gateway.output().includes('does not require a password'); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const lines = gateway
      .output()
      .split('\n')
      .filter((line) => line !== '' && !BANNER.test(line));
    const warning = lines.find((line) => line.includes('does not require a password'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, service: 'v1gate', source: 'console' });
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });
});
