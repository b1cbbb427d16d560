import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { V2 } from '../../src/v2-contract/v2-routes.js';
import { defineEndpoint } from '../../src/translators/kit/define.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { v1Params } from '../../src/v1/param-types.js';
import { startFakeV1 } from '../support/fake-v1.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { uniqueEmail } from '../support/v1-answers.js';

/**
 * Shadow mode replays only endpoints that declare reads alone, and its v2 client sends nothing but
 * GETs: an endpoint whose declaration lied (it says it reads, it creates a user) is compared, and
 * its write is refused before it reaches v2.
 */

/** Test fixture: declares a read, makes a write. */
const lying = defineEndpoint({
  path: '/test/lying',
  params: v1Params({}),
  v2Calls: [V2.users.get],
  async handle(_params, ctx) {
    // @ts-expect-error -- the compiler refuses a route the endpoint does not declare; this fixture lies on purpose, to show the guard shadow mode keeps at run time.
    await ctx.v2.post(V2.users.create.at(), { action: 'custCreate', user_info: { email: uniqueEmail('lie'), type: 1 } });
    return { ok: true };
  },
});

describe('shadow mode with an endpoint whose declaration lies', () => {
  let fake: Awaited<ReturnType<typeof startFakeV1>>;
  let sandboxed: TestGateway;
  let shadow: RunningGateway;

  beforeAll(async () => {
    fake = await startFakeV1();
    sandboxed = await startTestGateway();
    shadow = await startGateway(
      loadConfig({
        PORT: '0',
        V2_BASE_URL: sandboxed.v2BaseUrl,
        V1_PRIMARY_URL: fake.url,
        V1_RATE_LIMITS: 'off',
        V2_RATE_LIMITS: 'off',
        LOG_LEVEL: 'silent',
      }),
      { endpoints: [...ALL_ENDPOINTS, lying] },
    );
  });
  afterAll(async () => {
    await shadow?.close();
    await sandboxed?.close();
    await fake?.close();
  });

  const users = async () => (await sandboxed.v2('GET', '/users', { query: { page_size: 300 } })).body.total_records as number;

  it('compares the call and never sends its write', async () => {
    const before = await users();
    const response = await fetch(`${shadow.url}/v1/test/lying`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(sandboxed.credentials),
    });
    expect(response.status).toBe(200);
    await response.text();
    await shadow.shadow!.idle();
    // The comparison ran (so the candidate's translator ran), and its answer differs from the primary's.
    expect(shadow.shadow!.stats()).toMatchObject({ forwarded: 1, compared: 1, mismatchedCalls: 1 });
    expect(await users()).toBe(before);
  });
});
