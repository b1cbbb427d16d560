import { createServer, request as forward, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { hashSecret } from '../../src/upstream/auth/secret-hash.js';
import { startGatewayOver } from '../support/fault-upstream.js';
import { emptyCredentialFile } from '../support/gateway.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { uniqueEmail } from '../support/v1-answers.js';
import { postV1 } from '../support/v1-form.js';

/**
 * Today's v2 leaves the deprecated `page_count` and `page_number` out of lists it pages by number
 * (docs/live-evidence.md, "Retired routes and token paging"). A real proxy in front of the real
 * sandbox drops both from every answer it passes on; the v1 lists that read those pages still
 * answer page N of a list of more than three pages, with v1's page_count and total_records.
 */

let sandbox: RunningSandbox;
let proxy: Server;
let gateway: RunningGateway;
/** How many answers lost a paging field on the way, so the test knows the proxy did its work. */
let stripped = 0;

function startStrippingProxy(target: URL): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = forward(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (String(answer.headers['content-type']).includes('json') && body.length > 0) {
            const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
            if ('page_count' in json || 'page_number' in json) stripped++;
            delete json.page_count;
            delete json.page_number;
            body = Buffer.from(JSON.stringify(json));
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers).end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  sandbox = await startSandbox();
  proxy = await startStrippingProxy(new URL(sandbox.url));
  // Today's service takes only the access tokens of an OAuth app: the sandbox key is mapped to its app.
  const { credentials, oauthApp } = sandbox.sandbox;
  const file = emptyCredentialFile();
  const v2 = { kind: 'oauth', account_id: oauthApp.accountId, client_id: oauthApp.clientId, client_secret: oauthApp.clientSecret };
  writeFileSync(
    file,
    JSON.stringify([{ api_key: credentials.apiKey, secret_hash: await hashSecret(credentials.apiSecret), previous_secrets: [], v2 }]),
  );
  gateway = await startGatewayOver(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v2`, { V2_CREDENTIALS_FILE: file });
});
afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await sandbox?.close();
});

async function v1(path: string, params: Record<string, string>): Promise<Record<string, any>> {
  const creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
  return (await postV1(gateway.url, path, { ...creds, ...params })).json() as Record<string, any>;
}

async function newUsers(count: number): Promise<string[]> {
  const made = await Promise.all(
    Array.from({ length: count }, () =>
      sandbox.v2('POST', '/users', {
        body: { action: 'custCreate', user_info: { email: uniqueEmail('paged'), type: 1, first_name: 'Pa', last_name: 'Ged' } },
      }),
    ),
  );
  return made.map((answer) => answer.body.id as string);
}

/** v1's page `n` of `size` over `total` records: what every paged v1 list must answer. */
function expectPage(answer: Record<string, any>, items: unknown[], n: number, size: number, total: number): void {
  expect(answer.error).toBeUndefined();
  expect(answer.total_records).toBe(total);
  expect(answer.page_count).toBe(Math.ceil(total / size));
  expect(answer.page_number).toBe(n);
  expect(answer.page_size).toBe(size);
  expect(items).toHaveLength(Math.max(0, Math.min(size, total - (n - 1) * size)));
}

describe('v1 lists over v2 pages without page_count and page_number', () => {
  it('/user/list answers each page of a list of more than three pages', async () => {
    await newUsers(7);
    const total = (await sandbox.v2('GET', '/users', { query: { page_size: 300 } })).body.total_records as number;
    expect(total).toBeGreaterThan(6);
    const seen = new Set<string>();
    for (let n = 1; n <= Math.ceil(total / 2); n++) {
      const answer = await v1('/user/list', { page_size: '2', page_number: String(n) });
      expectPage(answer, answer.users, n, 2, total);
      for (const user of answer.users as { id: string }[]) seen.add(user.id);
    }
    expect(seen.size).toBe(total);
    expect(stripped).toBeGreaterThan(0);
  });

  it('/group/member/list answers page 4 of 4, and a page past the end empty', async () => {
    const group = (await sandbox.v2('POST', '/groups', { body: { name: `paged ${Date.now()}` } })).body.id as string;
    const members = await newUsers(7);
    await sandbox.v2('POST', `/groups/${group}/members`, { body: { members: members.map((id) => ({ id })) } });
    const last = await v1('/group/member/list', { id: group, page_size: '2', page_number: '4' });
    expectPage(last, last.members, 4, 2, 7);
    const past = await v1('/group/member/list', { id: group, page_size: '2', page_number: '5' });
    expectPage(past, past.members, 5, 2, 7);
  });

  it('/h323/device/list answers page 2 of a list of more than three pages', async () => {
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        sandbox.v2('POST', '/h323/devices', { body: { name: `room ${i}`, protocol: 'H.323', ip: `10.0.0.${i + 1}`, encryption: 'auto' } }),
      ),
    );
    const total = (await sandbox.v2('GET', '/h323/devices', { query: { page_size: 300 } })).body.total_records as number;
    expect(total).toBeGreaterThan(6);
    const answer = await v1('/h323/device/list', { page_size: '2', page_number: '2' });
    expectPage(answer, answer.devices, 2, 2, total);
  });
});
