import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { integrationOf, readCalls } from '../../src/compare/calls.js';
import { makeRecipe } from '../../src/recipe/recipe.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { fileURLToPath } from 'node:url';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { NO_LIMITS } from '../support/v1-answers.js';

/**
 * What the client programs (clients.test.ts) and the published libraries' drivers (published.test.ts)
 * run over: one gateway without limits, its owner, two sessions that happened on the May dashboard,
 * the environment every program reads, and the one way a program is run and its answer read.
 */

const run = promisify(execFile);

/** The report range every program asks for. */
export const REPORT = { from: '2024-05-01', to: '2024-05-31' };

export interface ClientFixtures {
  gw: TestGateway;
  ownerId: string;
  ownerEmail: string;
  /** A session of 75 minutes (01:15:00) on the May dashboard. */
  long: number;
  /** A session of 4 minutes (04:00) on the May dashboard. */
  short: number;
}

/** A meeting of the owner that happened at `start_time` for `duration_minutes` (sandbox control API): its number. */
async function happened(gw: TestGateway, ownerId: string, topic: string, start_time: string, duration_minutes: number): Promise<number> {
  const created = await gw.v2('POST', `/users/${ownerId}/meetings`, { body: { topic, type: 2, start_time, duration: 30 } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await gw.control('POST', `/meetings/${created.body.id}/happen`, { start_time, duration_minutes })).status).toBe(201);
  return created.body.id;
}

/**
 * The data a client run starts from, for the recipe's verification to start two sandboxes from
 * the same (by the record file the run writes): the sandbox's data file as it was before the first
 * client call, and the fixed pair its account is named by.
 */
const seeds = new Map<string, { data: string; identity: Record<string, string> }>();

/**
 * The gateway the programs run over: its sandbox's pair fixed and its data kept in a file, the two
 * sessions made and the data written (a stop writes it), then started again from that data, which
 * a copy keeps as the run's starting point.
 */
export async function startClientFixtures(env: Record<string, string> = {}): Promise<ClientFixtures> {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-client-data-'));
  const identity = { SANDBOX_API_KEY: randomBytes(12).toString('base64url'), SANDBOX_API_SECRET: randomBytes(24).toString('base64url') };
  const data = join(dir, 'sandbox.json');
  const first = await startTestGateway({ ...NO_LIMITS, ...identity, SANDBOX_DATA_FILE: data });
  const me = (await first.v2('GET', '/users/me')).body;
  const long = await happened(first, me.id, 'Long', '2024-05-02T10:00:00Z', 75);
  const short = await happened(first, me.id, 'Short', '2024-05-09T10:00:00Z', 4);
  await first.close();
  const seed = join(dir, 'seed.json');
  copyFileSync(data, seed);
  if (env.V1_RECORD_FILE) seeds.set(env.V1_RECORD_FILE, { data: seed, identity });
  const gw = await startTestGateway({ ...NO_LIMITS, ...identity, SANDBOX_DATA_FILE: data, ...env });
  return { gw, ownerId: me.id, ownerEmail: me.email, long, short };
}

/** What every program reads from its environment: where the gateway is, the credentials, the fixtures. */
export function clientEnv({ gw, ownerEmail }: ClientFixtures, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    V1_BASE_URL: `${gw.url}/v1`,
    V1_API_KEY: gw.credentials.api_key,
    V1_API_SECRET: gw.credentials.api_secret,
    OWNER_EMAIL: ownerEmail,
    REPORT_FROM: REPORT.from,
    REPORT_TO: REPORT.to,
    ...extra,
  };
}

/** Runs a program; answers the JSON object it printed (its stderr names the answer it could not read). */
export async function runProgram(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<any> {
  try {
    const { stdout } = await run(file, args, { env, timeout: 120_000, maxBuffer: 1 << 20 });
    return JSON.parse(stdout);
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed: ${failed.stderr || failed.message}`);
  }
}

/** Where a client test's gateway records every call (V1_RECORD_FILE): what the way-out recipe is made from. */
export function clientRecordFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'v1gate-client-record-')), 'calls.jsonl');
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run recipe` as a user runs it, with the fixed pair of the run's sandbox in its environment. */
export const recipeCommand = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/recipe.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 22,
  });

/**
 * `npm run recipe -- --verify` over a record: each call done by v1gate and from the recipe alone over
 * two sandboxes started from the run's starting data. Answers the exit code and the printed lines.
 */
export async function verifyRecord(file: string, recipeFile: string): Promise<{ code: number; lines: string[] }> {
  const seed = seeds.get(file);
  if (!seed) throw new Error(`no starting data is kept for ${file}: start its gateway with startClientFixtures`);
  try {
    const { stdout } = await recipeCommand(['--verify', recipeFile, '--record', file, '--sandbox-data', seed.data], seed.identity);
    return { code: 0, lines: stdout.trimEnd().split('\n') };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (failed.code !== 1) throw new Error(`npm run recipe -- --verify failed: ${failed.stderr ?? String(error)}`);
    return { code: 1, lines: (failed.stdout ?? '').trimEnd().split('\n') };
  }
}

/**
 * The recipe of a client run's record plans every endpoint the clients called: one integration (the
 * key's), nothing unserved, each endpoint declared with a worked example, and every v2 call a
 * recorded call made one its recipe names. Then `--verify` does every recorded call from the recipe
 * alone: each endpoint passes, or is listed as one the recipe cannot express with its reasons, and
 * none fails; those of `mustPass` (or all) pass. Nothing recorded (every client skipped): nothing to check.
 */
export async function expectRecipeOfRecord(file: string, apiKey: string, mustPass: 'all' | readonly string[] = []): Promise<void> {
  const calls = readCalls(file);
  if (calls.length === 0) return;
  const recipe = makeRecipe(calls, ALL_ENDPOINTS, { plan: 'pro', now: new Date() });
  expect(recipe.integrations.map((i) => i.integration)).toEqual([integrationOf(apiKey)]);
  const [integration] = recipe.integrations;
  expect(integration!.unserved).toEqual([]);
  expect(new Set(integration!.endpoints.map((e) => e.path))).toEqual(new Set(calls.map((c) => c.path)));
  for (const endpoint of integration!.endpoints) {
    expect(endpoint.declared, endpoint.path).toBeDefined();
    expect(endpoint.example, endpoint.path).toBeDefined();
    const steps = new Set([...endpoint.declared!.steps, ...endpoint.declared!.undo].map((s) => s.route));
    for (const sequence of endpoint.sequences)
      for (const step of sequence.steps) expect(steps, endpoint.path).toContain(step.replace(/^undo: /, ''));
  }
  const out = mkdtempSync(join(tmpdir(), 'v1gate-client-recipe-'));
  await recipeCommand(['--record', file, '--out', out]);
  const { code, lines } = await verifyRecord(file, join(out, 'recipe.json'));
  const verdicts = lines.filter((line) => /^(pass|fail|cannot-express)\s/.test(line));
  expect(code, lines.join('\n')).toBe(0);
  expect(verdicts.length, lines.join('\n')).toBe(integration!.endpoints.length);
  for (const endpoint of integration!.endpoints) {
    const at = lines.findIndex((line) => line.includes(` /v1${endpoint.path} (`));
    expect(lines[at], lines.join('\n')).toMatch(/^(pass|cannot-express)\s/);
    // An endpoint the recipe cannot express says why, on the lines after it.
    if (lines[at]!.startsWith('cannot-express')) expect(lines[at + 1], endpoint.path).toMatch(/^ {4}\S/);
    if (mustPass === 'all' || mustPass.includes(endpoint.path)) expect(lines[at], lines.join('\n')).toMatch(/^pass\s/);
  }
}
