import { parseArgs } from 'node:util';
import { Context } from 'hono';
import { buildRevision } from './base-build.js';
import { REPO_ROOT } from './procs.js';
import type { EndpointDefinition } from '../src/translators/kit/define.js';
import type { V1Call } from '../src/v1-steps/v1-call.js';

/**
 * `npx tsx bench/form-reading.ts [--base <git revision>] [--rounds 15] [--calls 4000]`
 *
 * The facade's reading of a call, this checkout's against another revision's, in one process: the
 * form's fields from the query string and body (readParams) and what they ask (read: the params
 * as v1 read them, the data_type, the endpoint), for three representative forms. Each tree's own
 * src/v1-facade modules are loaded from its sources (bench/out/builds/<commit>/, as
 * bench:builds exports it), so both are compiled alike; rounds alternate old and new (A B, B A,
 * ...) so that the machine's load falls on both, and each figure is the median round's ns a call.
 * The body's bytes are read from memory: the socket and the request's stream are not in it.
 */

const { values } = parseArgs({
  options: {
    // The last revision before the one-pass reader.
    base: { type: 'string', default: 'd28d185' },
    rounds: { type: 'string', default: '15' },
    calls: { type: 'string', default: '4000' },
  },
});
const rounds = Number(values.rounds);
// bench/harness.ts's pair, not imported: the load harness loads every translator, which this does not need.
const [API_KEY, API_SECRET] = ['benchApiKey00000', 'benchApiSecret0000000000000'];
const calls = Number(values.calls);

interface FormCase {
  name: string;
  path: string;
  body: Buffer;
  contentType: string;
}

/** checkemail as bench/cases.ts sends it; meeting/create's 15 fields as PHP's http_build_query sends them, the blank ones too. */
async function formCases(): Promise<FormCase[]> {
  const urlencoded = 'application/x-www-form-urlencoded';
  const checkEmail = new URLSearchParams({ api_key: API_KEY, api_secret: API_SECRET, email: 'bench.user.1234@example.com' });
  const create = {
    api_key: API_KEY,
    api_secret: API_SECRET,
    host_id: 'z8yCxjabcdefghijk',
    topic: 'Weekly sync – Zürich team',
    type: '2',
    start_time: '2030-07-01T15:00:00Z',
    duration: '30',
    timezone: 'Europe/Berlin',
    password: '',
    agenda: 'Plans for Q3\r\nand the review',
    option_jbh: 'true',
    option_host_video: '',
    option_participants_video: 'true',
    option_audio: 'both',
    data_type: 'JSON',
  };
  const multipart = new Request('http://x/', { method: 'POST', body: formDataOf(create) });
  return [
    { name: 'checkemail (3 fields)', path: '/v1/user/checkemail', body: Buffer.from(checkEmail.toString()), contentType: urlencoded },
    {
      name: 'meeting/create (15 fields)',
      path: '/v1/meeting/create',
      body: Buffer.from(new URLSearchParams(create).toString()),
      contentType: urlencoded,
    },
    {
      name: 'meeting/create, multipart (15 fields)',
      path: '/v1/meeting/create',
      body: Buffer.from(await multipart.arrayBuffer()),
      contentType: multipart.headers.get('content-type') ?? '',
    },
  ];
}

function formDataOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

/** One tree's reading: its own readParams, V1Call, registry and read. */
type Reading = (form: FormCase) => Promise<unknown>;

async function readingOf(root: string): Promise<Reading> {
  // Both trees' modules have these shapes: the old one's are typed as this checkout's.
  const [params, read, v1Call, registry] = await Promise.all([
    import(`${root}src/v1-steps/params.ts`) as Promise<typeof import('../src/v1-steps/params.js')>,
    import(`${root}src/v1-steps/read.ts`) as Promise<typeof import('../src/v1-steps/read.js')>,
    import(`${root}src/v1-steps/v1-call.ts`) as Promise<typeof import('../src/v1-steps/v1-call.js')>,
    import(`${root}src/translators/kit/registry.ts`) as Promise<typeof import('../src/translators/kit/registry.js')>,
  ]);
  // Only the registry's lookup is read: an endpoint here is its path.
  const endpoints = registry.buildRegistry([{ path: '/user/checkemail' }, { path: '/meeting/create' }] as EndpointDefinition[]);
  const calls = new Map<string, V1Call>();
  return async (form) => {
    let call = calls.get(form.path);
    if (!call) {
      call = new v1Call.V1Call(new Context(new Request(`http://v1gate.test${form.path}`, { method: 'POST' })), form.path, true, false);
      calls.set(form.path, call);
    }
    return read.read(call, await params.readParams('', form.body, form.contentType, 1_000), endpoints);
  };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function nsPerCall(reading: Reading, form: FormCase): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await reading(form);
  return Number(process.hrtime.bigint() - started) / calls;
}

const base = buildRevision(values.base ?? 'd28d185');
const sides: Record<'old' | 'new', Reading> = { old: await readingOf(base.dir), new: await readingOf(REPO_ROOT) };
const forms = await formCases();
console.log(`base ${base.commit.slice(0, 7)} against this checkout; ${rounds} alternated rounds of ${calls} calls a form`);
for (const form of forms) {
  const times: Record<'old' | 'new', number[]> = { old: [], new: [] };
  // A first round each, not counted: the compiler's warm-up.
  for (const side of ['old', 'new'] as const) await nsPerCall(sides[side], form);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
    for (const side of order) times[side].push(await nsPerCall(sides[side], form));
  }
  const [old, now] = [median(times.old), median(times.new)];
  console.log(`${form.name}: old ${(old / 1000).toFixed(2)} µs, new ${(now / 1000).toFixed(2)} µs a call (${(now / old).toFixed(2)}x)`);
}
