import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * Every file the gateway writes is its owner's to read only, whatever the umask: the webhook
 * journal carries the receivers' credentials, the record file what v1 clients sent, the sandbox's
 * data file its accounts' secrets, the log what the calls were. One gateway runs under umask 022
 * with every file-writing setting on, is used, and stopped; then every file under its folder is listed.
 */

const pair = { key: 'file-modes-key', secret: 'file-modes-secret-0123456789abcdef' };

/** Every file under `folder`, at any depth. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the files the gateway writes, under umask 022', () => {
  let gateway: GatewayProcess | undefined;
  afterAll(() => gateway?.kill());

  it('are each readable and writable by their owner only', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'v1gate-file-modes-'));
    const subscriptions = join(folder, 'subscriptions.json');
    writeFileSync(subscriptions, JSON.stringify([{ api_key: pair.key, url: 'https://receiver.example/hook?secret=s3cret' }]), {
      mode: 0o600,
    });
    const before = process.umask(0o022);
    try {
      gateway = await startGatewayProcess({
        ...NO_LIMITS,
        SANDBOX_RATE_LIMITS: 'off',
        SANDBOX_API_KEY: pair.key,
        SANDBOX_API_SECRET: pair.secret,
        LOG_LEVEL: 'info',
        LOG_FILE: join(folder, 'logs', 'v1gate.log'),
        V1_RECORD_FILE: join(folder, 'calls.jsonl'),
        PID_FILE: join(folder, 'v1gate.pid'),
        SANDBOX_DATA_FILE: join(folder, 'state', 'sandbox.json'),
        V1_WEBHOOKS_FILE: subscriptions,
        V1_WEBHOOKS_JOURNAL: join(folder, 'journal', 'webhooks.journal'),
        V2_WEBHOOK_SECRET_TOKEN: 'file-modes-webhook-token',
      });
    } finally {
      process.umask(before);
    }
    const form = new URLSearchParams({ api_key: pair.key, api_secret: pair.secret });
    const users = await fetch(`${gateway.url}/v1/user/list`, { method: 'POST', body: form });
    expect(users.status).toBe(200);
    const { users: list } = (await users.json()) as { users: { id: string }[] };
    const created = await fetch(`${gateway.url}/v1/meeting/create`, {
      method: 'POST',
      body: new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, host_id: list[0]!.id, topic: 'modes', type: '2' }),
    });
    expect(created.status).toBe(200);
    await gateway.stop();

    const files = filesUnder(folder);
    const written = files.filter((file) => file !== subscriptions).map((file) => file.slice(folder.length + 1));
    for (const expected of ['logs/v1gate.log', 'calls.jsonl', 'state/sandbox.json', 'journal/webhooks.journal']) {
      expect(written, gateway.output()).toContain(expected);
    }
    const open = files
      .filter((file) => (statSync(file).mode & 0o077) !== 0)
      .map((file) => `${file}: ${(statSync(file).mode & 0o777).toString(8)}`);
    expect(open).toEqual([]);
  }, 60_000);
});
