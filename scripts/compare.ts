import { readFileSync, writeFileSync } from 'node:fs';
import { readCalls } from '../src/compare/calls.js';
import { parseCommandLine, replaySecret } from '../src/compare/cli-args.js';
import { compareCalls } from '../src/compare/compare.js';
import { endpointFacts } from '../src/compare/endpoint-facts.js';
import { callsFromHar } from '../src/compare/har.js';
import { renderHtmlReport } from '../src/compare/html-report.js';
import { ReplayPacer } from '../src/compare/pacing.js';
import { progressPrinter } from '../src/compare/progress.js';
import { liveTarget, recordedTarget, type Credentials } from '../src/compare/replay.js';
import { realDifferences, type CompareReport } from '../src/compare/report.js';
import { recordRedactor } from '../src/compare/secrets.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';

/** `npm run compare`: replay recorded v1 calls against two targets and report how they differ (docs/migration.md). */
const USAGE = `usage:
  npm run compare -- --a URL|recorded --b URL --calls calls.jsonl [options]
  npm run compare -- import-har capture.har --out calls.jsonl

  --a, --b URL|recorded   the two v1 targets (recorded: the answers the recording holds)
  --calls FILE            recorded calls (V1_RECORD_FILE, or import-har's output)
  --key K                 the api_key sent with every call (or V1_API_KEY)
  --secret-file FILE      its api_secret, the file's first line (or V1_API_SECRET; --secret S
                          works too, but shows the secret to ps and in npm's echo of the command)
  --noise URL             a second copy of A: fields that differ between A and it are noise
  --writes                replay writes too (only against targets safe to write to)
  --json FILE             the report as JSON (for CI)
  --report FILE           the report as one HTML page
  --max-diff N            exit 1 past N real field differences (default 0)
  --concurrency N         recorded calls in flight at once (default 4)
  --rate N                at most N recorded calls per second (default: v1's own limits alone)
  --help                  this text

Exit: 0 within --max-diff, 1 past it, 2 for a usage error or a failure.`;

const OPTIONS = {
  a: { type: 'string' },
  b: { type: 'string' },
  noise: { type: 'string' },
  calls: { type: 'string' },
  key: { type: 'string' },
  secret: { type: 'string' },
  'secret-file': { type: 'string' },
  writes: { type: 'boolean', default: false },
  report: { type: 'string' },
  json: { type: 'string' },
  'max-diff': { type: 'string', default: '0' },
  concurrency: { type: 'string', default: '4' },
  rate: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

class UsageError extends Error {}

function wholeNumber(value: string, option: string, min: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min) throw new UsageError(`--${option} takes a whole number of at least ${min}`);
  return n;
}

function importHar(file: string | undefined, out: string | undefined): number {
  if (!file || !out) throw new UsageError('import-har needs a HAR file and --out');
  const calls = callsFromHar(JSON.parse(readFileSync(file, 'utf8')));
  writeFileSync(out, calls.map((c) => `${JSON.stringify(c)}\n`).join(''));
  console.log(`${calls.length} v1 calls written to ${out}`);
  return 0;
}

function printResult(report: CompareReport, maxDiff: number): void {
  console.log(report.summary.line);
  console.log(`${realDifferences(report)} real field differences (--max-diff ${maxDiff}).`);
  for (const endpoint of report.endpoints.filter((e) => e.verdict === 'differs')) {
    const fields = endpoint.real.map((f) => `${f.field} (${f.kind})`).join(', ');
    console.log(`  /v1${endpoint.path}: ${endpoint.differing}/${endpoint.calls} differ: ${fields}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals[0] === 'import-har') return importHar(positionals[1], values.out);
  if (!values.a || !values.b || !values.calls) throw new UsageError('--a, --b and --calls are required');
  const secret = replaySecret(values, process.env, (file) => readFileSync(file, 'utf8'));
  if ('problem' in secret) throw new UsageError(secret.problem);
  if (secret.warning) console.error(secret.warning);
  const credentials: Credentials = { apiKey: values.key ?? process.env.V1_API_KEY ?? '', apiSecret: secret.secret ?? '' };
  const needsCredentials = [values.a, values.b, values.noise].some((t) => t !== undefined && t !== 'recorded');
  if (needsCredentials && (!credentials.apiKey || !credentials.apiSecret))
    throw new UsageError('live targets need --key (or V1_API_KEY) and V1_API_SECRET (or --secret-file)');
  const maxDiff = wholeNumber(values['max-diff'], 'max-diff', 0);
  const concurrency = wholeNumber(values.concurrency, 'concurrency', 1);
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  if (rate !== undefined && !(rate > 0)) throw new UsageError('--rate takes a number of calls per second above 0');
  const target = (name: string) => (name === 'recorded' ? recordedTarget() : liveTarget(name, credentials));
  const calls = readCalls(values.calls);
  const progress = progressPrinter(process.stderr);
  const report = await compareCalls(calls, {
    a: target(values.a),
    b: target(values.b),
    ...(values.noise ? { noise: target(values.noise) } : {}),
    writes: values.writes,
    ...endpointFacts(ALL_ENDPOINTS),
    concurrency,
    pacer: new ReplayPacer({ rate }),
    onProgress: (p) => progress.update(p),
  });
  progress.end();
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (values.report) writeFileSync(values.report, renderHtmlReport(report));
  printResult(report, maxDiff);
  return realDifferences(report) > maxDiff ? 1 : 0;
}

/** A usage error (ours, or an option parseArgs refuses) is explained with the usage; anything else shows where it failed. */
function failureText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const usage = error instanceof UsageError || ('code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  return usage ? `${error.message}\n\n${USAGE}` : (error.stack ?? error.message);
}

/** The secret given on the command line, however it was written (`--secret S`, `--secret=S`). */
function secretArgument(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--secret');
  return at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('--secret='))?.slice('--secret='.length);
}

/** What the command prints about a failure: never the secret it was given, never a stack trace for a usage error. */
const redactArgs = recordRedactor([process.env.V1_API_SECRET, secretArgument(process.argv.slice(2))]);

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(redactArgs.redact(failureText(error)));
    process.exit(2);
  },
);
