import { answerParent } from './child-ipc.js';

/**
 * The v2 client of one build, driven alone in its own process (bench/v2-exchange.ts forks one per
 * build and alternates their rounds). It imports the client from the compiled tree V2_BUILD_DIST
 * names (this checkout's bench/out/dist/, or another revision's), so each process runs exactly that
 * build's src/upstream as plain JavaScript, as `npm start` would.
 *
 * Each call is made as a v1 call makes it: a credentials object of its own, an own-time clock, a
 * request id, an `onSend` and an `onResult`. `{ type: 'round' }` → that many calls
 * (V2_CALLS, V2_CONCURRENCY in flight), answered with this process's CPU µs per call over them.
 *
 *   V2_CASE=read   GET /users/email?email=<its own>, as /v1/user/checkemail (a one-field query, a 23-byte answer)
 *   V2_CASE=write  POST /users/{userId}/meetings with a meeting's JSON, as /v1/meeting/create (an 857-byte answer)
 */

interface Build {
  V2Client: new (options: Record<string, unknown>) => {
    call(credentials: object, request: object): Promise<unknown>;
    close(): Promise<void>;
  };
  V2Authorizer: new (minter: unknown) => unknown;
  TokenMinter: new (options: Record<string, unknown>) => unknown;
  v2Route: (method: string, path: string) => { at(...ids: string[]): unknown };
  OwnTime: new () => unknown;
}

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const dist = env('V2_BUILD_DIST');
const build: Build = {
  ...((await import(`${dist}src/upstream/client.js`)) as Pick<Build, 'V2Client'>),
  ...((await import(`${dist}src/upstream/auth/authorizer.js`)) as Pick<Build, 'V2Authorizer'>),
  ...((await import(`${dist}src/upstream/jwt.js`)) as Pick<Build, 'TokenMinter'>),
  ...((await import(`${dist}src/v2-contract/v2-route.js`)) as Pick<Build, 'v2Route'>),
  ...((await import(`${dist}src/shared/own-time.js`)) as Pick<Build, 'OwnTime'>),
};

const client = new build.V2Client({
  baseUrl: env('V2_BASE_URL'),
  authorizer: new build.V2Authorizer(new build.TokenMinter({ ttlSeconds: 3600, renewBeforeSeconds: 60, maxCachedKeys: 10_000 })),
  connections: 64,
  timeoutMs: 10_000,
  maxAttempts: 2,
});

const userId = env('V2_USER_ID');
const write = env('V2_CASE') === 'write';
const readTarget = build.v2Route('GET', '/users/email').at();
const writeTarget = build.v2Route('POST', '/users/{userId}/meetings').at(userId);
const calls = Number(env('V2_CALLS'));
const concurrency = Number(env('V2_CONCURRENCY'));

let n = 0;
let sent = 0;
const onSend = () => sent++;
const onResult = () => {};

function oneCall(): Promise<unknown> {
  const i = n++;
  const request = write
    ? {
        target: writeTarget,
        body: { topic: `Benchmark create ${i}`, type: 2, start_time: '2030-07-01T15:00:00Z', duration: 30, timezone: 'UTC' },
      }
    : { target: readTarget, query: { email: `bench.${i}@example.com` } };
  return client.call(
    { apiKey: 'benchApiKey00000', apiSecret: 'benchApiSecret0000000000000' },
    { ...request, onSend, onResult, requestId: `req-${i}`, ownTime: new build.OwnTime() },
  );
}

/** `calls` calls, `concurrency` at a time; the CPU this process spent on them, per call (µs). */
async function round(): Promise<{ cpuUs: number; failures: number }> {
  let left = calls;
  let failures = 0;
  const before = process.cpuUsage();
  const lane = async () => {
    while (left-- > 0) await oneCall().catch(() => failures++);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const used = process.cpuUsage(before);
  return { cpuUs: (used.user + used.system) / calls, failures };
}

process.on('message', (message: { type?: string }) => {
  if (message?.type !== 'round') return;
  round().then(
    (result) => process.send?.({ type: 'round', ...result, sent }),
    (error: unknown) => process.send?.({ type: 'round', error: String(error) }),
  );
});
answerParent(() => client.close());
process.send?.({ type: 'ready', port: 0 });
