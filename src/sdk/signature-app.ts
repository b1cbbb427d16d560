import { Hono } from 'hono';
import type { Logger } from 'pino';
import { bugBehind } from '../shared/failure.js';
import { prefixOf } from '../shared/route-owners.js';
import type { SdkApp } from '../upstream/auth/credential-map.js';
import type { Credentials, V2Client } from '../upstream/client.js';
import { invalidParameter, missingParameter } from '../v1/errors.js';
import { v1ErrorAnswer } from '../translators/kit/error-answer.js';
import { isBug, Refusal } from '../translators/kit/failures.js';
import { admit, type InboundGate } from '../v1-steps/admit.js';
import { authenticate } from '../v1-steps/authenticate.js';
import { ParamDecodeError, readParams } from '../v1-steps/params.js';
import { readFields, type FieldsDecoder } from '../v1-steps/read.js';
import { RequestCall } from '../v1-steps/v1-call.js';
import type { CredentialsCheck } from './credentials-check.js';
import { hostZak } from './host-zak.js';
import {
  generateJwtSignature,
  generateSignature,
  JWT_LIFETIME_SECONDS,
  MEETING_NUMBER,
  type SdkRole,
} from '../v2-contract/sdk-signature.js';

/**
 * POST /sdk/signature: the join signature made on the server, so no secret reaches the page.
 * Fields as a form (like every v1 call) or as JSON; `meetingNumber` and `expirationSeconds` are
 * accepted beside `meeting_number` and `expiration_seconds` because those are the SDK's and the
 * service's sample's own names. Answers, with `Cache-Control: no-store`:
 *
 *   a key the credential map gives an SDK app: today's JWT signature, signed with that app's secret
 *     {"signature": "<JWT>", "sdkKey": "...", "zak": "..." (role 1 only: the meeting host's ZAK)}
 *   any other key: the 1.9.1 HMAC with the key's v1 secret     {"signature": "..."}
 *
 * `signature` keeps its name in both, so a legacy page changes only its SDK include (and passes
 * `sdkKey` and `zak` on to join). A key with an SDK app never gets the HMAC: its legacy secret
 * signs nothing. Errors are the v1 error envelope, like the rest of the gateway; any method but
 * POST is answered 405 with `Allow: POST`.
 */
export const SDK_SIGNATURE_PATH = `${prefixOf('sdk')}/signature`;

export interface SignatureAppOptions {
  credentials: CredentialsCheck;
  inbound?: InboundGate;
  maxBodyBytes: number;
  /** ALLOWED_API_KEYS: the keys allowed through, the signer's as the facade's (undefined: any). */
  allowedApiKeys?: ReadonlySet<string> | undefined;
  now?: () => number;
  /** The SDK app the credential map gives a key (none: the 1.9.1 signature). */
  sdkAppOf?: (apiKey: string) => SdkApp | undefined;
  /** Where a host's ZAK is fetched (needed with `sdkAppOf`). */
  v2?: V2Client;
  /** Where a bug is logged, once, with its trace (a client's mistake is answered, never logged here). */
  logger?: Logger;
}

/** The fields of a signature request: a form's, or a JSON object's (its whole numbers as their decimal text). */
type SignatureFields = Readonly<Record<string, unknown>>;

/** What a signature is made of, besides the caller's pair. */
interface SignatureRequest {
  meetingNumber: string;
  role: SdkRole;
  expirationSeconds: number | undefined;
  videoWebrtcMode: 0 | 1 | undefined;
}

type SignatureAnswer = { signature: string } | { signature: string; sdkKey: string; zak?: string };

/**
 * The facade's read, authenticate and admit (src/v1-facade/), composed around the signer's own
 * checks: the fields read (a body or field error refused there, as in the facade), the pair and
 * its standing, then the signature's fields, then the inbound limit, in the buckets of the pair's
 * key when v2 accepted the pair lately, else the pair's own; only then is the pair proven.
 */
export function createSignatureApp(options: SignatureAppOptions): Hono {
  const app = new Hono();
  app.post(SDK_SIGNATURE_PATH, async (c) => {
    const call = new RequestCall(c);
    try {
      const params = await readFields(call, { maxBytes: options.maxBodyBytes }, signatureFields);
      // The allow-list is the facade's; the pair is decided by the credentials check after the limit.
      const authenticated = authenticate({ call, params, endpointPath: SDK_SIGNATURE_PATH }, options.allowedApiKeys, options.credentials);
      const request = validate(params);
      const admitting = admit(authenticated, options.inbound);
      const { credentials } = admitting instanceof Promise ? await admitting : admitting;
      await options.credentials.check(credentials);
      const signed = await sign(options, request, credentials);
      return c.json(signed, 200, { ...call.headers, 'Cache-Control': 'no-store' });
    } catch (error) {
      if (isBug(error)) options.logger?.error({ err: bugBehind(error), path: SDK_SIGNATURE_PATH }, 'unexpected error');
      return v1ErrorAnswer(error, { headers: closing(call) });
    }
  });
  // No CORS here (a back end asks, never a page): any other method, OPTIONS and HEAD included, is
  // told the one it may use, in the envelope every answer of the signer has.
  app.all(SDK_SIGNATURE_PATH, (c) => {
    const refusal = new Refusal('not-a-post', `v1 calls are POST requests, not ${c.req.method}.`);
    return v1ErrorAnswer(refusal, { status: 405, headers: { allow: 'POST' } });
  });
  return app;
}

/** The answer's headers so far, and `connection: close` when the rest of the connection cannot be trusted. */
function closing(call: RequestCall): Record<string, string> {
  return call.closeConnection ? { ...call.headers, connection: 'close' } : call.headers;
}

/** The key's SDK app signs today's JWT (with the host's ZAK for role 1); without one, the 1.9.1 HMAC. */
async function sign(options: SignatureAppOptions, request: SignatureRequest, credentials: Credentials): Promise<SignatureAnswer> {
  const nowMs = (options.now ?? Date.now)();
  const sdk = options.sdkAppOf?.(credentials.apiKey);
  if (!sdk) return { signature: generateSignature({ ...credentials, ...request }, nowMs) };
  const signature = generateJwtSignature(
    {
      sdkKey: sdk.key,
      sdkSecret: sdk.secret,
      meetingNumber: request.meetingNumber,
      role: request.role,
      ...(request.expirationSeconds === undefined ? {} : { expirationSeconds: request.expirationSeconds }),
      ...(request.videoWebrtcMode === undefined ? {} : { videoWebrtcMode: request.videoWebrtcMode }),
    },
    nowMs,
  );
  if (request.role === 0) return { signature, sdkKey: sdk.key };
  if (!options.v2) throw new Error('The signer has an SDK app but no v2 client to fetch a host ZAK with.');
  return { signature, sdkKey: sdk.key, zak: await hostZak(options.v2, credentials, request.meetingNumber) };
}

/**
 * A form as every v1 call sends one; or a JSON object, its query string left unread. Whole numbers
 * (the SDK's own samples send `meetingNumber` and `role` as numbers) are read as their decimal
 * text; any other value that is not text is kept, for the field that reads it to refuse.
 */
const signatureFields: FieldsDecoder<SignatureFields> = (search, body, contentType, maxFields) => {
  if (!contentType?.toLowerCase().startsWith('application/json')) return readParams(search, body, contentType, maxFields);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ParamDecodeError('The JSON body could not be parsed.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ParamDecodeError('The JSON body must be an object.');
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed)) fields[name] = isCount(value) ? String(value) : value;
  return fields;
};

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A field as text, under the first of its names it is given by; a value that is not one text is invalid. */
function textField(fields: SignatureFields, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (value === undefined || value === '') continue;
    if (typeof value === 'string') return value;
    throw invalidParameter(name, 'Expected a single text value.');
  }
  return undefined;
}

/** The signature's own fields, each refused by name when missing or invalid (the pair is authenticate's). */
function validate(fields: SignatureFields): SignatureRequest {
  const meetingNumber = textField(fields, 'meeting_number', 'meetingNumber');
  if (meetingNumber === undefined) throw missingParameter('meeting_number');
  if (!MEETING_NUMBER.test(meetingNumber)) throw invalidParameter('meeting_number', 'A meeting number is 1 to 12 digits.');
  const role = textField(fields, 'role');
  if (role === undefined) throw missingParameter('role');
  if (role !== '0' && role !== '1') throw invalidParameter('role', 'Role is 0 (attendee) or 1 (host).');
  return {
    meetingNumber,
    role: Number(role) as SdkRole,
    expirationSeconds: lifetime(fields),
    videoWebrtcMode: webrtcMode(fields),
  };
}

/** A JWT signature's lifetime (exp − iat): whole seconds within the service's bounds; absent, its default. */
function lifetime(fields: SignatureFields): number | undefined {
  const text = textField(fields, 'expiration_seconds', 'expirationSeconds');
  if (text === undefined) return undefined;
  const { min, max } = JWT_LIFETIME_SECONDS;
  if (!/^\d{1,6}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw invalidParameter('expiration_seconds', `A signature lives ${min} to ${max} seconds (30 minutes to 48 hours).`);
  }
  return Number(text);
}

function webrtcMode(fields: SignatureFields): 0 | 1 | undefined {
  const text = textField(fields, 'video_webrtc_mode', 'videoWebrtcMode');
  if (text === undefined) return undefined;
  if (text !== '0' && text !== '1') throw invalidParameter('video_webrtc_mode', 'The WebRTC video mode is 0 or 1.');
  return Number(text) as 0 | 1;
}
