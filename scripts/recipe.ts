import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readCalls } from '../src/compare/calls.js';
import { callsFromHar } from '../src/compare/har.js';
import { makeRecipe } from '../src/recipe/recipe.js';
import { writeRecipe } from '../src/recipe/write.js';
import { RATE_LIMIT_PLANS, type RateLimitPlan } from '../src/shared/rate-limit-plans.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';

/** `npm run recipe`: from recorded v1 calls, each integration's plan for moving to v2 (docs/recipe.md). */
const USAGE = `usage:
  npm run recipe -- --record calls.jsonl --out DIR [--plan pro|business]
  npm run recipe -- --har capture.har --out DIR

  --record FILE   recorded calls (the file V1_RECORD_FILE writes)
  --har FILE      or a HAR capture of the integration's v1 traffic
  --out DIR       where recipe.json, one <integration>.md each and index.html are written
  --plan P        the v2 plan whose rate limits the recorded volume is set against (default pro)
  --help          this text`;

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      record: { type: 'string' },
      har: { type: 'string' },
      out: { type: 'string' },
      plan: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return (void console.log(USAGE), 0);
  const plan = (values.plan ?? 'pro') as RateLimitPlan;
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

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`npm run recipe: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
