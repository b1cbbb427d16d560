import type { V2CallObservation } from '../upstream/client.js';
import type { V1Params } from './params.js';
import type { SecretValues } from '../shared/secrets.js';
import { newRequestId } from '../shared/request-id.js';
import type { FailureKind } from '../../mappings/errors.js';

/**
 * What the facade tells observers about each v1 call it answered: one record per call, after the
 * answer is made. Metrics, structured logs and the call recorder all read this one record, so
 * they agree on what a call was. Observers run synchronously after the answer is serialised; one
 * that throws is ignored (an observer must never change or fail a v1 answer).
 */
export interface V1CallRecord {
  /** From the client's `X-Request-Id` (when printable and at most 128 characters), else made here. */
  readonly requestId: string;
  /** The call's W3C trace (the client's `traceparent` continued, or a new one) and its own span in it. */
  readonly traceId: string;
  readonly spanId: string;
  /** The socket's peer (a proxy's address behind one). */
  readonly peer?: string | undefined;
  /** The client's address: the peer, or through one of TRUSTED_PROXIES the client it names. */
  readonly client?: string | undefined;
  /** When the request arrived. */
  readonly startedAt: Date;
  readonly method: string;
  /** The path as the client sent it. */
  readonly rawPath: string;
  /** The endpoint's canonical v1 path (`/user/get`), or undefined when no endpoint matched. */
  readonly endpoint: string | undefined;
  /** The api_key, when the call carried one (observers hash it; never the secret). */
  readonly apiKey: string | undefined;
  /**
   * The request's own api_secret (every value sent under that name), for observers to redact by
   * value wherever it appears (src/shared/secrets.ts); held so that printing the record never shows
   * it. Undefined when the call carried none.
   */
  readonly secrets?: SecretValues | undefined;
  /** The v1 params without `api_key` and `api_secret`; undefined when they could not be read. */
  readonly params: Readonly<V1Params> | undefined;
  /** undefined on success, else the v1 error code answered. */
  readonly errorCode: number | undefined;
  /** undefined on success, else the kind of failure answered (mappings/errors.ts): a client's mistake, v2's, or a bug. */
  readonly failure?: FailureKind | undefined;
  /** The error of a bug in v1gate (failure `internal`), for its stack; undefined otherwise. */
  readonly fault?: unknown;
  /**
   * Whether the call's pair was proven: the credential map matched its secret, or v2 accepted the
   * pair (lately, or one of this call's v2 calls answered anything but 401). Otherwise the caller
   * is anonymous: anyone who knows the api_key, or nobody at all.
   */
  readonly pairProven: boolean;
  /** The v1 answer object (the error envelope on failure), before serialisation. */
  readonly answer: unknown;
  readonly dataType: 'JSON' | 'XML';
  /** Whole call, from arrival to the serialised answer. */
  readonly ms: number;
  /** The v2 calls really sent for it, in the order they finished. */
  readonly v2Calls: readonly V2CallObservation[];
}

export type CallObserver = (record: V1CallRecord) => void;

/** One observer that tells each of `observers` in turn; one that throws is passed over, never keeping the others from being told. */
export function tellingEach(observers: readonly CallObserver[]): CallObserver {
  return (record) => {
    for (const observer of observers) {
      try {
        observer(record);
      } catch {
        // An observer must never change or fail a v1 answer, nor another observer's record.
      }
    }
  };
}

/**
 * Told of each v1 call's own time (src/shared/own-time.ts) once its answer's last byte is written:
 * from its request read to that byte, less its waits on v2 and on outbound tokens. The endpoint is
 * undefined when none matched.
 */
export type OwnTimeObserver = (endpoint: string | undefined, seconds: number) => void;

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's request id when it is a sane token, else a new one. */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && REQUEST_ID.test(header) ? header : newRequestId();
}

/** Copy of the params without the credentials: what may be kept, logged or written to a file. */
export function paramsWithoutCredentials(params: V1Params): V1Params {
  // Copied key by key, in the params' own order: a rest pattern (`{ api_key, api_secret, ...rest }`)
  // copies through the runtime's general property copy, about a third slower a call. The params are
  // a plain object of their own fields (params.ts), so `for...in` walks exactly those.
  const rest: V1Params = {};
  for (const key in params) if (key !== 'api_key' && key !== 'api_secret') rest[key] = params[key] as V1Params[string];
  return rest;
}
