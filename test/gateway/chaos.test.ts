import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/gateway.js';
import { postV1 } from '../support/v1-form.js';
import { startFaultUpstream, startGatewayOver, type Fault, type FaultUpstream } from '../support/fault-upstream.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';
import { FUTURE } from '../support/v1-answers.js';

/**
 * Chaos: a seeded mix of v1 writes over an upstream that fails at random (5xx before or after
 * applying, resets before or halfway through the answer, slow answers, failing reads after
 * writes). Afterwards the sandbox's state must match exactly what each v1 answer claimed: a
 * success is there, "Nothing was changed" left nothing, "was created, but reading it back" and
 * "remains done" left it done, and only "may or may not have been applied" leaves either.
 */
const SEED = Number(process.env.CHAOS_SEED ?? 20261123);
const CALLS = 60;

/** mulberry32: a small seeded generator, so a failing mix can be replayed with CHAOS_SEED. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WRITE_FAULTS: Fault[] = [
  { kind: 'answer', status: 500, body: '{"code":500,"message":"Injected"}' },
  { kind: 'answer-after-apply', status: 502, body: '<html>Bad gateway</html>' },
  { kind: 'reset-after-apply' },
  { kind: 'reset' },
  { kind: 'delay', ms: 30 },
];

let sandbox: RunningSandbox;
let faults: FaultUpstream;
let gateway: RunningGateway;
let creds: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox();
  const random = seeded(SEED);
  faults = await startFaultUpstream(`${sandbox.url}/v2`, { random });
  // Each rule draws its own chance; the fault of a rule is fixed, so rules are made per fault.
  for (const fault of WRITE_FAULTS) {
    for (const method of ['POST', 'PATCH', 'DELETE']) faults.rules.push({ method, path: /^\//, fault, probability: 0.06 });
  }
  faults.rules.push({ method: 'GET', path: /^\/users\/me$/, fault: { kind: 'answer', status: 503 }, probability: 0.15 });
  gateway = await startGatewayOver(faults.url, { UPSTREAM_MAX_ATTEMPTS: '1' });
  creds = { api_key: sandbox.sandbox.credentials.apiKey, api_secret: sandbox.sandbox.credentials.apiSecret };
});
afterAll(async () => {
  await gateway?.close();
  await faults?.close();
  await sandbox?.close();
});

async function v1(path: string, params: Record<string, string>): Promise<any> {
  return (await postV1(gateway.url, path, { ...creds, ...params })).json();
}

/** What a v1 answer claims about the write it was asked for. */
type Claim = 'done' | 'not-done' | 'unknown';
function claimOf(answer: any): Claim {
  if (!answer.error) return 'done';
  const message: string = answer.error.message;
  if (/may or may not have succeeded/.test(message)) return 'unknown';
  if (/was (created|edited), but reading it back|remains done/.test(message)) return 'done';
  if (/Its earlier steps were undone\./.test(message)) return 'not-done';
  if (/may or may not have been applied/.test(message)) return 'unknown';
  return 'not-done';
}

describe(`chaos (seed ${SEED})`, () => {
  it('leaves the upstream exactly as the v1 answers claimed', async () => {
    const random = seeded(SEED ^ 0x5eed);
    const owner = sandbox.sandbox.master.ownerId;
    // Each claim is checked when its answer has come (the state is final for that call by then):
    // a later call may rightly undo it (a meeting created, then deleted).
    const checks: { what: string; claim: Claim; present: boolean; answer: unknown }[] = [];
    const check = (what: string, answer: unknown, present: () => boolean) =>
      checks.push({ what, claim: claimOf(answer), present: present(), answer });
    const meetings: string[] = [];

    for (let i = 0; i < CALLS; i++) {
      const pick = random();
      if (pick < 0.3) {
        const name = `Chaos group ${SEED} ${i}`;
        const answer = await v1('/group/create', { name });
        check(`group/create ${name}`, answer, () => [...sandbox.sandbox.state.groups.values()].some((g) => g.name === name));
      } else if (pick < 0.55) {
        const email = `chaos.${SEED}.${i}@example.com`;
        const answer = await v1('/user/custcreate', { email, type: '1', dept: 'Chaos' });
        check(`user/custcreate ${email}`, answer, () => sandbox.sandbox.state.usersByEmail.has(email));
      } else if (pick < 0.8 || meetings.length === 0) {
        const topic = `Chaos meeting ${SEED} ${i}`;
        const answer = await v1('/meeting/create', { host_id: owner, type: '2', topic, start_time: FUTURE, duration: '30' });
        if (!answer.error) meetings.push(String(answer.id));
        check(`meeting/create ${topic}`, answer, () => [...sandbox.sandbox.state.meetings.values()].some((m) => m.topic === topic));
      } else {
        const id = meetings.splice(Math.floor(random() * meetings.length), 1)[0]!;
        const answer = await v1('/meeting/delete', { id, host_id: owner });
        // A delete is done when the meeting is gone.
        check(`meeting/delete ${id}`, answer, () => !sandbox.sandbox.state.meetings.has(Number(id)));
      }
    }

    const faulted = faults.seen.filter((r) => r.fault !== 'none').length;
    expect(faulted, 'the mix must meet faults to prove anything').toBeGreaterThan(5);
    const wrong = checks.filter((c) => c.claim !== 'unknown' && c.present !== (c.claim === 'done'));
    expect(wrong.map((c) => `${c.what}: claimed ${c.claim}, answer ${JSON.stringify(c.answer)}`)).toEqual([]);
    // Every answer is a v1 answer: an object, or a v1 error envelope with a numeric code.
    for (const c of checks) expect(typeof c.answer).toBe('object');
  }, 60_000);
});
