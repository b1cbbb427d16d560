import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../src/config.js';
import { EndpointPlan } from '../src/recipe/plan-schema.js';
import { startGateway, type RunningGateway } from '../src/gateway.js';
import type { RecordedCall } from '../src/compare/calls.js';
import { verdictLines, verifyRecipe, type RecipeDocument, type VerifySide } from '../src/recipe/verify.js';
import { sandboxToken } from './sandbox-token.js';
import { readCalls } from '../src/compare/calls.js';
import { callsFromHar } from '../src/compare/har.js';
import { makeRecipe } from '../src/recipe/recipe.js';
import { writeRecipe } from '../src/recipe/write.js';
import { RATE_LIMIT_PLANS, type RateLimitPlan } from '../src/v2-contract/rate-limit-plans.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';

/** `npm run recipe`: from recorded v1 calls, each integration's plan for moving to v2 (docs/recipe.md). */
const USAGE = `usage:
  npm run recipe -- --record calls.jsonl --out DIR [--plan pro|business]
  npm run recipe -- --har capture.har --out DIR
  npm run recipe -- --verify DIR|recipe.json --record calls.jsonl [--sandbox-data FILE]
  npm run recipe -- --schema

  --record FILE   recorded calls (the file V1_RECORD_FILE writes)
  --har FILE      or a HAR capture of the integration's v1 traffic
  --out DIR       where recipe.json, one <integration>.md each and index.html are written
  --plan P        the v2 plan whose rate limits the recorded volume is set against (default pro)
  --verify R      do each recorded call twice over two embedded sandboxes holding the same data:
                  by v1gate, and from the recipe R alone; print pass / fail / cannot-express per
                  endpoint; exit 1 on a fail
  --sandbox-data F  the data both sandboxes start from (a SANDBOX_DATA_FILE, with the
                  SANDBOX_API_KEY and SANDBOX_API_SECRET of its account in the environment)
  --schema        print the JSON Schema of an endpoint's plan (generated from its zod schema)
  --help          this text`;

/** A gateway over its own embedded sandbox, started from a copy of `data` when given, its limits off (a replay's pace is the record's). */
async function sandboxGateway(data: string | undefined, dir: string, name: string): Promise<RunningGateway> {
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SANDBOX_RATE_LIMITS: 'off',
    V1_RATE_LIMITS: 'off',
    V2_RATE_LIMITS: 'off',
  };
  for (const key of ['SANDBOX_API_KEY', 'SANDBOX_API_SECRET', 'SANDBOX_OAUTH_CLIENT_ID', 'SANDBOX_OAUTH_CLIENT_SECRET'])
    if (process.env[key]) env[key] = process.env[key]!;
  if (data) {
    const copy = join(dir, `${name}.json`);
    copyFileSync(data, copy);
    env.SANDBOX_DATA_FILE = copy;
  }
  return startGateway(loadConfig(env));
}

/** A side of the verification: v1 calls to the gateway with its sandbox's own pair, v2 calls with its app's token. */
async function sideOf(gateway: RunningGateway): Promise<VerifySide> {
  const { apiKey, apiSecret } = gateway.sandbox!.credentials;
  const token = await sandboxToken(gateway.url, apiKey, apiSecret);
  return {
    async v1(path, params) {
      const form = new URLSearchParams({ api_key: apiKey, api_secret: apiSecret });
      for (const [name, value] of Object.entries(params))
        for (const item of Array.isArray(value) ? value : [value]) form.append(Array.isArray(value) ? `${name}[]` : name, item);
      const answer = await fetch(`${gateway.url}/v1${path}`, { method: 'POST', body: form });
      return answer.json();
    },
    async v2(method, path, body) {
      const answer = await fetch(`${gateway.v2BaseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
  };
}

async function verify(recipeAt: string, calls: RecordedCall[], data: string | undefined): Promise<number> {
  const file = existsSync(recipeAt) && statSync(recipeAt).isDirectory() ? join(recipeAt, 'recipe.json') : recipeAt;
  const recipe = JSON.parse(readFileSync(file, 'utf8')) as RecipeDocument;
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-verify-'));
  const gateways: RunningGateway[] = [];
  try {
    gateways.push(await sandboxGateway(data, dir, 'a'), await sandboxGateway(data, dir, 'b'));
    const verdicts = await verifyRecipe(recipe, calls, await sideOf(gateways[0]!), await sideOf(gateways[1]!));
    for (const line of verdictLines(verdicts)) console.log(line);
    const count = (verdict: string) => verdicts.filter((v) => v.verdict === verdict).length;
    console.log(
      `${verdicts.length} endpoints: ${count('pass')} pass, ${count('fail')} fail, ${count('cannot-express')} cannot be expressed`,
    );
    return count('fail') ? 1 : 0;
  } finally {
    await Promise.all(gateways.map((g) => g.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      record: { type: 'string' },
      har: { type: 'string' },
      out: { type: 'string' },
      plan: { type: 'string' },
      verify: { type: 'string' },
      schema: { type: 'boolean' },
      'sandbox-data': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return (void console.log(USAGE), 0);
  const plan = (values.plan ?? 'pro') as RateLimitPlan;
  if (values.schema) return (void console.log(JSON.stringify(z.toJSONSchema(EndpointPlan), null, 2)), 0);
  if (values.verify) {
    if (!values.record) return (void console.error(USAGE), 2);
    return verify(values.verify, readCalls(values.record), values['sandbox-data']);
  }
  if (!values.out || !values.record === !values.har || !RATE_LIMIT_PLANS.includes(plan)) {
    console.error(USAGE);
    return 2;
  }
  const calls = values.record ? readCalls(values.record) : callsFromHar(JSON.parse(readFileSync(values.har!, 'utf8')));
  const recipe = makeRecipe(calls, ALL_ENDPOINTS, { plan, now: new Date() });
  const files = writeRecipe(recipe, values.out);
  const endpoints = new Set(recipe.integrations.flatMap((i) => i.endpoints.map((e) => e.path))).size;
  console.log(
    `${calls.length} calls, ${recipe.integrations.length} integrations, ${endpoints} endpoints: ${files.length} files in ${values.out}`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`npm run recipe: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
