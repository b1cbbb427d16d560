import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { uniqueEmail } from '../support/v1-answers.js';

/**
 * The error texts clients match on are the ones docs/live-evidence.md records with their sources
 * ("The error texts clients match on"): each case drives the v1 call that ends in that error over
 * the real sandbox and compares code and message with the table's row, its `<placeholder>` filled
 * with the value the call named.
 */

/** The table's rows: code and text, as docs/live-evidence.md writes them. */
function evidenceTexts(): { code: number; text: string }[] {
  const doc = readFileSync(new URL('../../docs/live-evidence.md', import.meta.url), 'utf8');
  const section = doc.split('## The error texts clients match on')[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/^\| (\d+) \| `([^`]+)`/gm)].map((m) => ({ code: Number(m[1]), text: m[2]! }));
}

/** The table's text for `code` whose words before the placeholder are `start`, filled with `value`. */
function expected(code: number, start: string, value = ''): { code: number; message: string } {
  const row = evidenceTexts().find((r) => r.code === code && r.text.startsWith(start));
  expect(row, `docs/live-evidence.md has no ${code} row starting "${start}"`).toBeDefined();
  return { code, message: row!.text.replace(/<[a-z]+>/, value) };
}

let gw: TestGateway;
let ownerId: string;
beforeAll(async () => {
  gw = await startTestGateway();
  ownerId = (await gw.v2('GET', '/users/me')).body.id as string;
});
afterAll(() => gw.close());

describe('v1gate refusals', () => {
  it('a call without credentials: the text settings pages tell an unconfigured site by', async () => {
    const answer = await gw.v1('/user/list', {}, { noCredentials: true });
    expect(answer.error).toEqual(expected(101, 'Api key'));
  });

  it('a call with the api_key alone is refused in the same words', async () => {
    const answer = await gw.v1('/user/list', { api_key: gw.credentials.api_key }, { noCredentials: true });
    expect(answer.error).toEqual(expected(101, 'Api key'));
  });
});

describe("v2's errors, passed through as today's service words them", () => {
  it('1005: creating a user whose email is in the account (a user sync reads it as success)', async () => {
    const email = uniqueEmail('taken');
    expect((await gw.v1('/user/custcreate', { email, type: 1 })).error).toBeUndefined();
    const again = await gw.v1('/user/custcreate', { email, type: 1 });
    expect(again.error).toEqual(expected(1005, 'User already', email));
    expect(again.error.message).toContain('User already in the account');
  });

  it('1001: a user that does not exist', async () => {
    const answer = await gw.v1('/user/get', { id: 'nobody-here' });
    expect(answer.error).toEqual(expected(1001, 'User does', 'nobody-here'));
  });

  it('3001: a meeting that does not exist', async () => {
    const answer = await gw.v1('/meeting/get', { id: '98399082887', host_id: ownerId });
    expect(answer.error).toEqual(expected(3001, 'Meeting', '98399082887'));
  });

  it('3001: a webinar that does not exist', async () => {
    const answer = await gw.v1('/webinar/get', { id: '98399082888', host_id: ownerId });
    expect(answer.error).toEqual(expected(3001, 'Webinar', '98399082888'));
  });

  it('4130: a group that does not exist', async () => {
    const answer = await gw.v1('/group/get', { id: 'no-such-group' });
    expect(answer.error).toEqual(expected(4130, 'Group', 'no-such-group'));
  });
});
