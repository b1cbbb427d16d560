import { Hono, type Context } from 'hono';
import type { ClientAddresses } from '../shared/private-access.js';
import pino, { type Logger } from 'pino';
import { DEFAULT_OUTBOUND_MAX_WAIT_MS } from '../ratelimit/outbound-limiter.js';
import type { DownloadLinkMaker, EndpointDefinition } from '../translators/kit/define.js';
import { buildRegistry } from '../translators/kit/registry.js';
import type { CallTracer } from '../shared/trace-context.js';
import { ROUTES } from '../shared/route-owners.js';
import type { V2Client } from '../upstream/client.js';
import { PairProver } from '../upstream/pair-proof.js';
import { admit, type InboundGate } from '../v1-steps/admit.js';
import { authenticate } from '../v1-steps/authenticate.js';
import type { LocalCheck } from '../upstream/auth/local-check.js';
import type { Bindings, FanOutCheck } from '../v1-steps/call-context.js';
import { dispatch, type DispatchParts } from './dispatch.js';
import { KeyMemo } from '../v1-steps/key-memo.js';
import { tellingEach, type CallObserver, type OwnTimeObserver } from '../v1-steps/observe.js';
import type { BodyLimits } from '../http/request-body.js';
import { read, readFields } from '../v1-steps/read.js';
import { readParamsNow } from '../v1-steps/params.js';
import { fail, observe, observeOwnTime, render } from './render.js';
import { V1Call } from '../v1-steps/v1-call.js';

/**
 * The v1 facade: `POST /v1/<area>/<action>` in any letter case, with or without a trailing slash.
 * One call goes through named steps, each in its own module with its own test, each taking the
 * result of the step before (typed in v1-call.ts) and the V1Call they share: read (the fields
 * wherever the client put them, as the SDK signer reads them too; then the data_type, the
 * endpoint) → authenticate (the pair) → admit
 * (the inbound limit) → dispatch (the endpoint's schema and translator) → render (the v1 object or
 * the v1 error envelope, HTTP 200 as v1 did, JSON or XML), then the observers.
 */

export interface V1AppOptions {
  endpoints: readonly EndpointDefinition[];
  v2: V2Client;
  /** Where pairs are proven; shared with the SDK signer, so a pair proven by either is proven for both. */
  pairs?: PairProver;
  inbound?: InboundGate;
  allowedApiKeys?: ReadonlySet<string>;
  body: BodyLimits;
  /** Off: every answer closes its connection (legacy clients that only write a body on a fresh connection). */
  keepAlive: boolean;
  /** How long one v1 call's v2 calls may wait, together, for outbound tokens. */
  outboundMaxWaitMs?: number;
  /** The fan-out pre-check (throws when `calls` v2 calls cannot be admitted within `waitMs`); none: every fan-out is let through. */
  fanOut?: FanOutCheck;
  /** Told about every v1 call answered (metrics, logs, the call recorder); see observe.ts. */
  observers?: readonly CallObserver[];
  /** Told of each call's own time once its answer is written (the added-latency histogram). */
  ownTime?: OwnTimeObserver;
  now?: () => Date;
  /** How long reads that only feed a computed v1 field are kept per key (ms); 0 or none: not kept. */
  auxCacheTtlMs?: number;
  /** The gateway's logger (translators get a child with the request id; a bug's trace goes here); none: nothing is written. */
  logger?: Logger;
  /** Starts each call's trace (src/ops/tracing.ts); none: the trace context is passed on to v2, no span is recorded. */
  tracer?: CallTracer;
  /** The credential map's check of the keys it names (no v2 call); none: every pair is proven by v2. */
  localCheck?: LocalCheck;
  /** Who sent a call, for its line (the socket's peer, and the client a trusted proxy names); none: the peer. */
  addresses?: (c: Context) => ClientAddresses;
  /** Download links for v2 recording files (src/downloads/); none: v2's download_url is answered as it is. */
  downloadLinks?: DownloadLinkMaker;
}

export function createV1App(options: V1AppOptions): Hono<{ Bindings: Bindings }> {
  const registry = buildRegistry(options.endpoints);
  const observers = options.observers ?? [];
  // Made once: a call tells its observers without a closure of its own.
  const tell = tellingEach(observers);
  const { inbound, allowedApiKeys, body, keepAlive, tracer, ownTime } = options;
  const pairs = options.pairs ?? new PairProver();
  const parts: DispatchParts = {
    v2: options.v2,
    memo: new KeyMemo({ auxTtlMs: options.auxCacheTtlMs ?? 0 }),
    pairs,
    now: options.now ?? (() => new Date()),
    outboundMaxWaitMs: options.outboundMaxWaitMs ?? DEFAULT_OUTBOUND_MAX_WAIT_MS,
    fanOut: options.fanOut,
    logger: options.logger ?? pino({ enabled: false }),
    downloadLinks: options.downloadLinks,
  };
  const app = new Hono<{ Bindings: Bindings }>();

  // A v1 call's path, as the route table says, in any letter case (`/V1/User/Get`): matched by
  // hand, Hono's routes are case-sensitive. `/v1/` alone names no endpoint: it is left to the
  // gateway's unknown-path answer.
  app.all('*', async (c, next) => {
    const path = c.req.path;
    if (!ROUTES.namesCallOf('v1', path)) return next();
    const call = new V1Call(c, path, keepAlive, observers.length > 0, tracer);
    try {
      // Each step takes the one before's result, kept as the furthest the call got; the usual call
      // awaits nothing in the middle two.
      const asked = read(call, await readFields(call, body, readParamsNow), registry);
      const authenticating = authenticate(asked, allowedApiKeys, pairs, options.localCheck);
      const authenticated = call.reach(authenticating instanceof Promise ? await authenticating : authenticating);
      const admitting = admit(authenticated, inbound);
      call.answer = await dispatch(call.reach(admitting instanceof Promise ? await admitting : admitting), parts);
    } catch (error) {
      // Its call line says what it was (a bug's at error level, with its stack: src/ops/logging.ts).
      fail(call, error);
    }
    const response = render(call);
    if (observers.length) observe(call, tell, options.addresses);
    if (ownTime) observeOwnTime(call, ownTime);
    return response;
  });

  return app;
}
