import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardToHub } from '../../src/gateway/forward-to-hub.js';
import { createSandbox, mountSandbox } from '../../src/sandbox/app.js';
import { ROUTES } from '../../src/shared/route-owners.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * Every route of every listener, read from the apps as registered (hono's route tables), and for
 * each what a client with no credentials can make v1gate spend there, the bound, and the test that
 * proves it. A route added to any listener without its row fails here; so does a row that names a
 * test file or a test title that does not exist. docs/decisions.md ("What an anonymous client can
 * make v1gate spend") and test/hostile/README.md say the same by resource and by attack.
 *
 * The listeners: the public gateway (every part mounted, the webhook intake on); the embedded
 * sandbox's own routes, which its loopback listener, the cluster hub and `npm run sandbox` serve
 * (each guarding /sandbox as the public listener does); a cluster worker's forward to the hub.
 */

/** `file › test title` (the title's first words are enough), or a finding: a spend with no bound yet. */
type Proof = `${string}.test.ts › ${string}` | { finding: string };

interface Spend {
  resource: string;
  bound: string;
  proof: readonly Proof[];
}

interface Row {
  /** The listeners' routes (`METHOD path`, as hono registered them) the row is for. */
  routes: RegExp;
  spends: readonly Spend[];
}

const HOSTILE = 'test/hostile/';

/** What every request costs before any route: the server's bounds, on each listener of ours. */
const EVERY_REQUEST: readonly Spend[] = [
  {
    resource: 'connections',
    bound: 'V1_MAX_CONNECTIONS, V1_MAX_CONNECTIONS_PER_ADDRESS; silent, idle, half-closed and never-reading ones end by deadlines',
    proof: [
      `${HOSTILE}connections.test.ts › are capped at V1_MAX_CONNECTIONS`,
      `${HOSTILE}connections.test.ts › holds at most V1_MAX_CONNECTIONS_PER_ADDRESS`,
      'src/http/connection-slots.test.ts › is the IPv4 client an IPv6 address carries',
      `${HOSTILE}connections.test.ts › are cut once their answer’s bytes have not moved`,
    ],
  },
  {
    resource: 'memory: request bodies',
    bound: 'V1_MAX_BODY_BYTES each, checked before buffering; V1_MAX_BUFFERED_BYTES all together',
    proof: [
      `${HOSTILE}huge-bodies.test.ts › are refused on every way in, each with its route’s error, none kept in memory`,
      `${HOSTILE}many-bodies.test.ts › hold at most the overall bound`,
    ],
  },
  {
    resource: 'time and timers',
    bound: 'V1_HEADERS_TIMEOUT_MS, V1_REQUEST_TIMEOUT_MS, V1_BODY_TIMEOUT_MS (one timer per body)',
    proof: [
      `${HOSTILE}slow-requests.test.ts › on the SDK signer, the webhook intake and the sandbox too`,
      `${HOSTILE}slow-requests.test.ts › are cut at the headers deadline with a 408 v1 envelope`,
    ],
  },
];

const V1_CALLS: readonly Spend[] = [
  {
    resource: 'CPU: parsing',
    bound: 'the body size and V1_MAX_FIELDS (query and body together, multipart parts counted first)',
    proof: [`${HOSTILE}many-fields.test.ts › are refused at the field cap while another client is answered all along`],
  },
  {
    resource: 'outbound: v2 calls (proofs of unknown pairs)',
    bound: 'one per v1 call at most; PROOF_LIMITS per api_key and in all; none of the owner’s v2 tokens',
    proof: [
      `${HOSTILE}credentials.test.ts › never refuses the owner just after a restart`,
      `${HOSTILE}local-sandbox-pairs.test.ts › read the account list one at a time`,
    ],
  },
  {
    resource: 'CPU: scrypt checks of a mapped key’s secrets; the remembered-pairs file and Redis keys',
    bound:
      'SECRET_CHECK_LIMITS; the remembered pairs looked up first; only a matched secret is written; a secret with a control character never hashed',
    proof: [
      `${HOSTILE}mapped-secrets.test.ts › one process: the pair matched before the restart is remembered`,
      `${HOSTILE}control-characters.test.ts › is refused naming api_secret, before any hash`,
    ],
  },
  {
    resource: 'outbound: a local sandbox’s account list, OAuth token requests',
    bound: 'the list one read at a time, at most once a second; a token only for a pair whose secret matched',
    proof: [
      `${HOSTILE}local-sandbox-pairs.test.ts › read the account list one at a time`,
      `${HOSTILE}local-sandbox-pairs.test.ts › the owner, after the flood, is served as its account’s OAuth app`,
    ],
  },
  {
    resource: 'memory: rate-limit buckets, proven pairs, secret checks, metric series',
    bound: 'RATE_LIMIT_MAX_BUCKETS (LRU), 10,000 proven pairs and checks, METRICS_PER_KEY_TOP + 1 series',
    proof: [`${HOSTILE}credentials.test.ts › takes none of a proven owner`, 'test/ops/metrics.test.ts › give a series only to keys'],
  },
  {
    resource: 'memory: the key memo (aux reads, facts, page tokens)',
    bound: 'kept only from v2 answers, so only for a pair v2 accepted; LRU: 10,000 keys, 10,000 pairs, 20,000 page tokens in 8 MiB',
    proof: [
      'src/v1-steps/key-memo.test.ts › keeps page tokens per pair, bounded in entries and bytes however many a client makes',
      'src/v1-steps/key-memo.test.ts › a failed fact read is not kept',
    ],
  },
  {
    resource: 'disk: log lines, the record file',
    bound: 'one bounded line per request; anonymous lines and records 200 + 100·t in t seconds; V1_RECORD_MAX_BYTES',
    proof: [`${HOSTILE}log-volume.test.ts › write at most one bounded line each`],
  },
  {
    resource: 'outbound: ids sent to v2',
    bound: 'the tables’ id lengths, checked before any v2 call',
    proof: [`${HOSTILE}long-ids.test.ts › a 20,000-character id is refused naming the field, with no v2 call`],
  },
];

const PRIVATE_PAGE: Spend = {
  resource: 'anything behind it',
  bound: 'refused 403 unless a loopback or PRIVATE_HOSTS Host, no forwarding but through TRUSTED_PROXIES, and a token or a loopback client',
  proof: [`${HOSTILE}private-pages.test.ts › is refused with 403 on every private route of the app`],
};

const SANDBOX_V2: readonly Spend[] = [
  {
    resource: 'memory: the sandbox’s state, tokens verified',
    bound: 'nothing without an access token the sandbox issued: the 401 comes before the body is read',
    proof: [`${HOSTILE}sandbox-anonymous.test.ts › are refused before any state`],
  },
];

/** The embedded sandbox's own routes, wherever it is served. */
const SANDBOX: readonly Row[] = [
  { routes: /^\S+ \/v2(\/|$)/, spends: SANDBOX_V2 },
  {
    routes: /^(ALL|POST) \/oauth(\/\*|\/token)$/,
    spends: [
      {
        resource: 'memory: issued tokens; an app’s token budget',
        bound: 'a token only for the right client secret (at most MAX_LIVE_TOKENS kept); a wrong secret spends no app’s budget',
        proof: [`${HOSTILE}sandbox-anonymous.test.ts › a flood of wrong client secrets`],
      },
    ],
  },
  { routes: /^GET \/rec\/download\/:token$/, spends: SANDBOX_V2 },
  { routes: /^\S+ \/sandbox(\/|$)/, spends: [PRIVATE_PAGE] },
];

/**
 * What `npm run sandbox` spends on every request, served alone (the hub and the loopback listener
 * are the gateway's own servers, with EVERY_REQUEST's bounds).
 */
const SANDBOX_ALONE: readonly Spend[] = [
  {
    resource: 'memory: bodies held together; connections; a request’s time',
    bound: 'the gateway’s defaults, fixed: 4 MiB a body, 64 MiB all together, 1,024 connections, headers in 10 s, a request in 30 s',
    proof: [`${HOSTILE}sandbox-alone.test.ts › holds at most its pool of bodies however many connections send them`],
  },
];

/** The public gateway (every part, the webhook intake on). */
const PUBLIC: readonly Row[] = [
  { routes: /^ALL \/\*$/, spends: [...EVERY_REQUEST, ...V1_CALLS] },
  ...SANDBOX,
  {
    routes: /^GET \/healthz$/,
    spends: [{ resource: 'nothing', bound: 'a constant answer', proof: ['test/ops/health.test.ts › is alive'] }],
  },
  {
    routes: /^GET \/readyz$/,
    spends: [
      {
        resource: 'outbound: a probe of V2_BASE_URL',
        bound: 'one at a time, its answer shared for READY_PROBE_EVERY_MS',
        proof: [`${HOSTILE}readiness-probes.test.ts › probes v2 one request at a time`],
      },
    ],
  },
  {
    routes: /^GET \/metrics$/,
    spends: [
      {
        resource: 'CPU: a render',
        bound: 'METRICS_TOKEN makes it private; its series bounded (METRICS_PER_KEY_TOP + 1 per-key series)',
        proof: [
          `${HOSTILE}private-pages.test.ts › opens /metrics when METRICS_TOKEN is set`,
          'test/ops/metrics.test.ts › give a series only to keys',
        ],
      },
    ],
  },
  {
    routes: /^(GET|POST) \/status(\/data|\/dead-letters\/:id\/replay)?$/,
    spends: [
      PRIVATE_PAGE,
      {
        resource: 'memory: anti-forgery sessions',
        bound: 'none kept: a session is the client’s cookie, its token an HMAC under one key minted at start',
        proof: [`${HOSTILE}private-pages.test.ts › is refused once expired, and by a process that did not mint it`],
      },
    ],
  },
  {
    routes: /^POST \/sdk\/signature$/,
    spends: [
      {
        resource: 'outbound: v2 proofs, a host’s ZAK',
        bound: 'a proof as a v1 call’s; the ZAK only after the pair is proven',
        proof: [`${HOSTILE}credentials.test.ts › signs for the owner every time`],
      },
    ],
  },
  {
    routes: /^ALL \/sdk\/signature$/,
    spends: [
      {
        resource: 'nothing beyond the request: any other method is answered 405 before a body, a limit or a credential is read',
        bound: 'the server’s bounds on every request',
        proof: ['test/sdk/signature-endpoint.test.ts › answers any other method 405 with Allow: POST'],
      },
    ],
  },
  {
    routes: /^GET \/downloads\/:link$/,
    spends: [
      {
        resource: 'CPU: a link’s SIV (an HMAC); outbound: downloads',
        bound: 'a link past 4,096 characters unread; a link not sealed with the key, or past an operator’s lifetime: no v2 call, no token',
        proof: [
          'test/gateway/recording-downloads.test.ts › a flood of bad links costs no v2 call',
          'test/gateway/recording-downloads.test.ts › where DOWNLOAD_URL_TTL_S is set',
        ],
      },
      {
        resource: 'outbound: downloads of valid links',
        bound:
          'DOWNLOAD_MAX_PER_KEY (8) of one key’s links streaming at once, per process; one more answered 429 before any token or fetch; HEAD and a matching If-None-Match read nothing of the file (one v2 list call)',
        proof: [
          'test/gateway/recording-downloads.test.ts › are at most DOWNLOAD_MAX_PER_KEY',
          'test/gateway/download-links.test.ts › HEAD of a 200 MB recording reads nothing of the file from v2',
        ],
      },
    ],
  },
  {
    routes: /^POST \/webhooks\/v2$/,
    spends: [
      {
        resource: 'disk: the journal; memory: replay ids; CPU: HMAC of the body',
        bound: 'nothing unsigned or stale (401 before the body is read); replay ids only for verified events, 10,000 at most',
        proof: [
          `${HOSTILE}webhook-floods.test.ts › journal nothing, deliver nothing, log nothing`,
          `${HOSTILE}webhook-floods.test.ts › the token holder’s malformed, unsupported and replayed events`,
        ],
      },
    ],
  },
  {
    routes: /^\S+ \/webhooks\/dead-letters(\/\*|\/:id\/replay)?$/,
    spends: [PRIVATE_PAGE, { resource: 'CPU', bound: 'a hash comparison', proof: [`${HOSTILE}webhook-floods.test.ts › journal nothing`] }],
  },
];

/** A cluster worker's forward of what exists once to the primary. */
const FORWARD: readonly Row[] = [
  {
    routes: /^ALL \/(v2|sandbox|oauth|rec|webhooks)(\/\*)?$/,
    spends: [
      {
        resource: 'a request forwarded to the hub',
        bound: 'read by the worker within its own bounds before the primary sees a byte; /sandbox judged at the worker',
        proof: [
          `${HOSTILE}huge-bodies.test.ts › are refused by the worker that reads them, before the primary sees a byte`,
          `${HOSTILE}slow-requests.test.ts › is cut by the worker’s forward at the request deadline`,
          `${HOSTILE}cluster-forward.test.ts › reaches the primary through a worker’s forward`,
        ],
      },
    ],
  },
];

let gateway: TestGateway;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-anonymous-spend-'));
  writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: 'http://127.0.0.1:9/hook', account_id: 'a' }]));
  gateway = await startTestGateway({
    V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
    V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
    V1_WEBHOOKS_ANY_PORT: '1',
    V2_WEBHOOK_SECRET_TOKEN: 'anonymous-spend-secret-token',
  });
});
afterAll(() => gateway?.close());

const routesOf = (app: { routes: readonly { method: string; path: string }[] }) => [
  ...new Set(app.routes.map(({ method, path }) => `${method} ${path}`)),
];

function sandboxRoutes(): string[] {
  const app = new Hono();
  mountSandbox(app, createSandbox({ limits: false }));
  return routesOf(app);
}

function forwardRoutes(): string[] {
  const app = new Hono();
  // What a primary's hub serves, as it lists it from the route table: the sandbox's prefixes and the webhook intake's.
  forwardToHub(app, 'http://127.0.0.1:9', [...ROUTES.prefixesOf('sandbox'), ...ROUTES.prefixesOf('webhooks')]);
  return routesOf(app);
}

/** The routes no row is for. */
const unmatched = (routes: readonly string[], rows: readonly Row[]) =>
  routes.filter((route) => !rows.some((row) => row.routes.test(route)));

describe('every route of every listener', () => {
  it('are many (the enumeration is not vacuous)', () => {
    expect(routesOf(gateway).length).toBeGreaterThan(150);
    expect(routesOf(gateway)).toContain('POST /webhooks/v2');
    expect(routesOf(gateway)).toContain('GET /downloads/:link');
    expect(sandboxRoutes().length).toBeGreaterThan(140);
    expect(forwardRoutes()).toHaveLength(10);
  });

  it('has its row: what an anonymous client can make it spend, and the bound', () => {
    expect(unmatched(routesOf(gateway), PUBLIC)).toEqual([]);
    expect(unmatched(sandboxRoutes(), SANDBOX)).toEqual([]);
    expect(unmatched(forwardRoutes(), FORWARD)).toEqual([]);
  });

  it('and no row is for a route that no longer exists', () => {
    const routes = [...routesOf(gateway), ...sandboxRoutes(), ...forwardRoutes()];
    for (const row of [...PUBLIC, ...SANDBOX, ...FORWARD])
      expect(
        routes.some((route) => row.routes.test(route)),
        String(row.routes),
      ).toBe(true);
  });
});

describe('each bound', () => {
  const proofs = [
    ...new Set([...EVERY_REQUEST, ...SANDBOX_ALONE, ...[...PUBLIC, ...FORWARD].flatMap((row) => row.spends)].flatMap((s) => s.proof)),
  ];

  it('is proven by a test that exists, named as it is written', () => {
    for (const proof of proofs) {
      if (typeof proof !== 'string') continue;
      const [file, title] = proof.split(' › ') as [string, string];
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file, 'utf8'), proof).toContain(title);
    }
  });

  it('or is one of the known findings, each reported in docs/decisions/: none is left', () => {
    const findings = proofs.filter((proof): proof is { finding: string } => typeof proof !== 'string').map((p) => p.finding);
    expect(findings).toEqual([]);
    const pages = readdirSync('docs/decisions').map((page) => join('docs/decisions', page));
    expect(pages.length).toBeGreaterThan(1);
    for (const page of ['docs/decisions.md', ...pages]) expect(readFileSync(page, 'utf8'), page).not.toContain('(a finding)');
  });
});
