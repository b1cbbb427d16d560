import { readFileSync, writeFileSync } from 'node:fs';
import { readCalls } from '../src/compare/calls.js';
import { parseCommandLine } from '../src/compare/cli-args.js';
import { compareCalls, realDifferences } from '../src/compare/compare.js';
import { callsFromHar } from '../src/compare/har.js';
import { renderHtmlReport } from '../src/compare/html-report.js';
import { liveTarget, recordedTarget, type Credentials } from '../src/compare/replay.js';
import { mappingIndex } from '../src/compare/field-sources.js';
import { readOnlyIndex } from '../src/compare/why.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';

/**
 * `npm run compare -- --a URL|recorded --b URL --calls calls.jsonl [--noise URL] [--key K --secret S]
 *   [--writes] [--report report.html] [--json report.json] [--max-diff N]`
 * `npm run compare -- import-har capture.har --out calls.jsonl`
 */
const USAGE = `usage:
  npm run compare -- --a URL|recorded --b URL --calls calls.jsonl [--noise URL] [--key K --secret S]
                     [--writes] [--report report.html] [--json report.json] [--max-diff N]
  npm run compare -- import-har capture.har --out calls.jsonl`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    a: { type: 'string' },
    b: { type: 'string' },
    noise: { type: 'string' },
    calls: { type: 'string' },
    key: { type: 'string' },
    secret: { type: 'string' },
    writes: { type: 'boolean', default: false },
    report: { type: 'string' },
    json: { type: 'string' },
    'max-diff': { type: 'string', default: '0' },
    out: { type: 'string' },
  });
  if (positionals[0] === 'import-har') {
    if (!positionals[1] || !values.out) throw new UsageError('import-har needs a HAR file and --out');
    const calls = callsFromHar(JSON.parse(readFileSync(positionals[1], 'utf8')));
    writeFileSync(values.out, calls.map((c) => `${JSON.stringify(c)}\n`).join(''));
    console.log(`${calls.length} v1 calls written to ${values.out}`);
    return 0;
  }
  if (!values.a || !values.b || !values.calls) throw new UsageError('--a, --b and --calls are required');
  const needsCredentials = [values.a, values.b, values.noise].some((t) => t !== undefined && t !== 'recorded');
  const credentials: Credentials = {
    apiKey: values.key ?? process.env.V1_API_KEY ?? '',
    apiSecret: values.secret ?? process.env.V1_API_SECRET ?? '',
  };
  if (needsCredentials && (!credentials.apiKey || !credentials.apiSecret))
    throw new UsageError('live targets need --key and --secret (or V1_API_KEY, V1_API_SECRET)');
  const maxDiff = Number(values['max-diff']);
  if (!Number.isInteger(maxDiff) || maxDiff < 0) throw new UsageError('--max-diff takes a whole number');
  const target = (name: string) => (name === 'recorded' ? recordedTarget() : liveTarget(name, credentials));

  const report = await compareCalls(readCalls(values.calls), {
    a: target(values.a),
    b: target(values.b),
    ...(values.noise ? { noise: target(values.noise) } : {}),
    writes: values.writes,
    isRead: readOnlyIndex(ALL_ENDPOINTS),
    why: mappingIndex(ALL_ENDPOINTS),
  });
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (values.report) writeFileSync(values.report, renderHtmlReport(report));
  const real = realDifferences(report);
  console.log(
    `${report.calls} calls replayed, ${report.skipped_writes} writes skipped, ${report.differing_calls} with real differences (${real} field differences; --max-diff ${maxDiff})`,
  );
  for (const endpoint of report.endpoints.filter((e) => e.differing > 0)) {
    console.log(
      `  /v1${endpoint.path}: ${endpoint.differing}/${endpoint.calls} differ: ${endpoint.fields
        .filter((f) => !f.noise)
        .map((f) => `${f.field} (${f.kind})`)
        .join(', ')}`,
    );
  }
  return real > maxDiff ? 1 : 0;
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : error);
    process.exit(2);
  },
);
