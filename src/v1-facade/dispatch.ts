import type { Logger } from 'pino';
import type { DownloadLinkMaker, EndpointDefinition, RecordingFileRef } from '../translators/kit/define.js';
import { ScopesMissing } from '../upstream/scopes-missing.js';
import { judgeable, missingScopes, requiredRoutesOf } from '../translators/kit/scopes.js';
import { nowOrLater } from '../shared/now-or-later.js';
import type { V2Client } from '../upstream/client.js';
import { pairProofOf, type PairProver } from '../upstream/pair-proof.js';
import { invalidParameter, missingParameter } from '../v1/errors.js';
import { NOT_READ } from '../v1/param-types.js';
import { paramsReaderOf } from '../v1/params-reader.js';
import { BoundMemo, BoundV2, CallContext, withdrawnWhenGone, type CallLine, type FanOutCheck } from '../v1-steps/call-context.js';
import type { KeyMemo } from '../v1-steps/key-memo.js';
import type { V1Params } from '../v1-steps/params.js';
import type { AdmittedCall } from '../v1-steps/v1-call.js';

/** What every call's dispatch shares: the v2 client, the key memo, the clock and the limits on waiting. */
export interface DispatchParts {
  v2: V2Client;
  memo: KeyMemo;
  /** Where pairs are proven (and forgotten on a 401). */
  pairs: PairProver;
  now: () => Date;
  /** How long one v1 call's v2 calls may wait, together, for outbound tokens. */
  outboundMaxWaitMs: number;
  fanOut: FanOutCheck | undefined;
  /** The gateway's logger: each call's translator gets a child with its request id. */
  logger: Logger;
  /** Download links for v2 recording files; none: v2's download_url is answered as it is. */
  downloadLinks?: DownloadLinkMaker | undefined;
}

const asGiven = (file: RecordingFileRef) => file.v2Url;

/**
 * The fourth step: the endpoint's translator. Its params parsed by its schema (a missing or
 * invalid one named; thrown at once), then run with the v2 API bound to the caller's pair and
 * deadline: the translator's own promise of the v1 answer, with no async frame around it.
 */
export function dispatch(admitted: AdmittedCall, parts: DispatchParts): Promise<unknown> {
  const input = parseParams(admitted.endpoint, admitted.params);
  const { credentials } = admitted;
  // Only a mapped OAuth app's token lists scopes; any other pair's calls are not judged here.
  if (credentials.v2?.kind !== 'oauth') return run(admitted, parts, input, undefined);
  return Promise.resolve(
    nowOrLater(parts.v2.grantOf(credentials), (grant) => {
      refuseUnscoped(admitted.endpoint, grant.scopes);
      return run(admitted, parts, input, grant.scopes);
    }),
  );
}

/**
 * Before the call's first v2 call: a token whose scopes do not open every route the endpoint
 * needs (its calls and its undos, but those it does without) would fail part way, perhaps after
 * a write, so it is refused whole, naming the scopes to add (docs/scopes.md).
 */
function refuseUnscoped(endpoint: EndpointDefinition, held: readonly string[] | undefined): void {
  if (!judgeable(held)) return;
  const missing = missingScopes(held, requiredRoutesOf(endpoint));
  if (missing.length > 0) throw new ScopesMissing(missing);
}

function run(admitted: AdmittedCall, parts: DispatchParts, input: unknown, scopes: readonly string[] | undefined): Promise<unknown> {
  const { call, endpoint, credentials } = admitted;
  const proof = pairProofOf(credentials);
  const deadlineMs = Date.now() + parts.outboundMaxWaitMs;
  const { memo } = parts;
  const { v2Calls } = call;
  const line: CallLine = {
    client: parts.v2,
    credentials,
    onSend: () => call.upstreamCalls++,
    requestId: call.requestId,
    trace: call.trace,
    ownTime: call.ownTime,
    onResult: v2Calls && ((observation) => v2Calls.push(observation)),
    pairs: parts.pairs,
    onRefused: () => {
      parts.pairs.refused(credentials);
      memo.refused(proof);
    },
    onWrite: () => memo.wrote(credentials.apiKey),
  };
  const v2 = new BoundV2(line, { deadlineMs, leaving: withdrawnWhenGone(call.c) }, admitted.proven);
  const ctx = new CallContext(
    v2,
    line,
    new BoundMemo(memo, credentials.apiKey, proof),
    parts.now,
    deadlineMs,
    parts.fanOut,
    parts.logger,
    parts.downloadLinks?.(credentials.apiKey, call.c) ?? asGiven,
    scopes,
  );
  const answer = endpoint.handle(input, ctx);
  // Once the answer is known no read of the call starts: the siblings of a read that failed, still
  // waiting for the pair's proof or a token, are withdrawn rather than sent after the answer.
  const answered = () => v2.answered();
  answer.then(answered, answered);
  return answer;
}

/** The endpoint's params, or the v1 error naming the first field missing or invalid. */
export function parseParams(endpoint: EndpointDefinition, params: V1Params): unknown {
  // The schema's reader compiled once (src/v1/params-reader.ts): what it reads is zod's answer; what it does not, zod parses and names.
  const read = paramsReaderOf(endpoint.params)?.(params);
  if (read !== undefined && read !== NOT_READ) return read;
  const result = endpoint.params.safeParse(params);
  if (result.success) return result.data;
  // zod reports at least one issue on a failure; its whole message stands in should it not.
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const field = String(path[0] ?? 'parameters');
  const raw = params[field];
  const absent = raw === undefined || (typeof raw === 'string' && raw.trim() === '') || (Array.isArray(raw) && raw.length === 0);
  if (absent && path.length <= 1) throw missingParameter(field);
  throw invalidParameter(field, issue?.message ?? result.error.message);
}
