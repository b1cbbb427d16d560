import { writeFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { createSandbox, mountSandbox } from '../src/sandbox/app.js';
import { inProcessV2, seedV2 } from './seed.js';

/**
 * `npx tsx bench/capture-fixtures.ts`: captures, once, the real sandbox's v2 answers to the calls
 * the benchmarked translators make, into bench/fixtures/v2-answers.json. The fixed-answer upstream
 * (fixed-upstream.ts) replays them, so the benchmark measures the gateway, not the sandbox.
 * Re-run it when the sandbox's answer shapes change.
 */

const KEY = 'benchCaptureKey0';
const SECRET = 'benchCaptureSecret000000000';
const sandbox = createSandbox({ apiKey: KEY, apiSecret: SECRET, limits: false });
const root = new Hono();
mountSandbox(root, sandbox);

const v2 = inProcessV2(root, sandbox);

const seeded = await seedV2(v2);
const u = encodeURIComponent(seeded.userId);
const m = encodeURIComponent(seeded.meetingId);

/**
 * [method, pattern the fixed upstream matches (a `?name=value` in it must be in the query), the
 * concrete path captured, the body posted]. Literal paths and those with a query first.
 */
const captures: [string, string, string, unknown?][] = [
  ['GET', '/users/email', `/users/email?email=${encodeURIComponent(seeded.email)}`],
  ['GET', '/users/{userId}/settings', `/users/${u}/settings`],
  ['GET', '/users/{userId}/token', `/users/${u}/token?type=zak`],
  ['GET', '/users/{userId}/meetings?type=live', `/users/${u}/meetings?type=live`],
  // A list page as /v1/meeting/list asks for it: the host's scheduled meetings (the seeded one).
  ['GET', '/users/{userId}/meetings', `/users/${u}/meetings?type=scheduled&page_size=30&page_number=1`],
  [
    'POST',
    '/users/{userId}/meetings',
    `/users/${u}/meetings`,
    { topic: 'Benchmark create', type: 2, start_time: '2030-07-01T15:00:00Z', duration: 30, timezone: 'UTC' },
  ],
  [
    'POST',
    '/users',
    '/users',
    { action: 'custCreate', user_info: { email: 'bench.created@example.com', type: 1, first_name: 'Bench', last_name: 'Created' } },
  ],
  ['GET', '/users/{userId}', `/users/${u}`],
  ['GET', '/meetings/{meetingId}', `/meetings/${m}`],
];

const routes = [];
for (const [method, pattern, path, body] of captures) {
  const answer = await v2(method, path, body);
  if (answer.status >= 300) throw new Error(`capture ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  routes.push({ method, pattern, status: answer.status, body: answer.body });
}
// Writes that answer no body (the translators' rollbacks and updates).
routes.push({ method: 'DELETE', pattern: '/meetings/{meetingId}', status: 204, body: null });
routes.push({ method: 'PATCH', pattern: '/meetings/{meetingId}', status: 204, body: null });
routes.push({ method: 'PATCH', pattern: '/users/{userId}/settings', status: 204, body: null });
routes.push({ method: 'PATCH', pattern: '/users/{userId}', status: 204, body: null });
routes.push({ method: 'DELETE', pattern: '/users/{userId}', status: 204, body: null });

const out = { capturedAt: new Date().toISOString(), seeded, routes };
await writeFile(new URL('./fixtures/v2-answers.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(`captured ${routes.length} v2 answers into bench/fixtures/v2-answers.json`, seeded);
