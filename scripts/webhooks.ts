/**
 * `npm run webhooks -- list` and `npm run webhooks -- replay <id>|all`: the dead letters of a
 * running gateway, through its operator routes (the gateway owns the journal, a file or Redis; this
 * script works the same with either and opens neither).
 * GATEWAY_URL (default http://127.0.0.1:8080) and V2_WEBHOOK_SECRET_TOKEN (or its old name
 * V2_WEBHOOK_TOKEN, as the gateway reads it) name the gateway and its secret token.
 */
const base = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const token = process.env.V2_WEBHOOK_SECRET_TOKEN || process.env.V2_WEBHOOK_TOKEN;
const [command, target] = process.argv.slice(2);
const USAGE = `usage: npm run webhooks -- list | replay <id>|all

  list          the dead letters of the running gateway: id, time, receiver, attempts, last error
  replay ID     deliver dead letter ID again (all: every one)

GATEWAY_URL (default http://127.0.0.1:8080) names the gateway; V2_WEBHOOK_SECRET_TOKEN, the secret
token it was started with, authorizes the calls.`;

interface DeadLetter {
  id: string;
  url: string;
  body: string;
  attempts: number;
  lastError?: string;
  createdAt: number;
}

async function call<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${base}${path}`, { method, headers: { authorization: token ?? '' } });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function main(): Promise<void> {
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (!token) throw new Error('V2_WEBHOOK_SECRET_TOKEN must be set (the secret token the gateway was started with)');
  const { dead_letters: dead } = await call<{ dead_letters: DeadLetter[] }>('GET', '/webhooks/dead-letters');
  if (command === 'list') {
    for (const job of dead)
      console.log(
        `${job.id}  ${new Date(job.createdAt).toISOString()}  ${new URL(job.url).origin}  attempts=${job.attempts}  ${job.lastError ?? ''}  ${job.body}`,
      );
    console.log(`${dead.length} dead letter(s)`);
    return;
  }
  if (command === 'replay' && target) {
    const ids: string[] = target === 'all' ? dead.map((j) => j.id) : [target];
    for (const id of ids) await call<unknown>('POST', `/webhooks/dead-letters/${encodeURIComponent(id)}/replay`);
    console.log(`replayed ${ids.length} dead letter(s)`);
    return;
  }
  throw new Error(USAGE);
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
