import { Hono, type Context } from 'hono';
import { inboundOwnerOf } from '../ratelimit/inbound-limiter.js';
import { readBody, requestBudget } from '../shared/request-body.js';
import { Refusal } from '../translators/kit/failures.js';
import type { SdkApp } from '../upstream/auth/credential-map.js';
import type { Credentials, V2Client } from '../upstream/client.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import { invalidParameter, missingParameter } from '../v1/errors.js';
import { v1ErrorAnswer } from '../translators/kit/error-answer.js';
import { readParams, type V1Params } from '../v1-facade/params.js';
import { refusalOfUnread } from '../v1-facade/unread.js';
import type { InboundGate } from '../v1-facade/app.js';
import type { CredentialsCheck } from './credentials-check.js';
import { hostZak } from './host-zak.js';
import { generateJwtSignature, generateSignature, JWT_LIFETIME_SECONDS, MEETING_NUMBER, type SdkRole } from './signature.js';

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
 * signs nothing. Errors are the v1 error envelope, like the rest of the gateway.
 */
export const SDK_SIGNATURE_PATH = '/sdk/signature';

export interface SignatureAppOptions {
  credentials: CredentialsCheck;
  inbound?: InboundGate;
  maxBodyBytes: number;
  now?: () => number;
  /** The SDK app the credential map gives a key (none: the 1.9.1 signature). */
  sdkAppOf?: (apiKey: string) => SdkApp | undefined;
  /** Where a host's ZAK is fetched (needed with `sdkAppOf`). */
  v2?: V2Client;
}

interface SignatureRequest {
  apiKey: string;
  apiSecret: string;
  meetingNumber: string;
  role: SdkRole;
  expirationSeconds: number | undefined;
  videoWebrtcMode: 0 | 1 | undefined;
}

type SignatureAnswer = { signature: string } | { signature: string; sdkKey: string; zak?: string };

export function createSignatureApp(options: SignatureAppOptions): Hono {
  const app = new Hono();
  app.post(SDK_SIGNATURE_PATH, async (c) => {
    let headers: Record<string, string> = {};
    try {
      const fields = await readFields(c, new URL(c.req.url).search, options.maxBodyBytes);
      const request = validate(fields);
      const credentials = { apiKey: request.apiKey, apiSecret: request.apiSecret };
      if (options.inbound) {
        // As in the facade: an unproven pair is limited in its own buckets, never its key's.
        const proven = options.credentials.isProven(credentials);
        const owner = inboundOwnerOf(credentials.apiKey, proven ? undefined : pairProofOf(credentials));
        const decision = await options.inbound.check(owner, SDK_SIGNATURE_PATH);
        headers = decision.headers;
        if (!decision.allowed) throw new Refusal('inbound-limited', undefined, decision.headers);
      }
      await options.credentials.check(credentials);
      const signed = await sign(options, request, credentials);
      return c.json(signed, 200, { ...headers, 'Cache-Control': 'no-store' });
    } catch (error) {
      return v1ErrorAnswer(refusalOfUnread(error), { headers });
    }
  });
  return app;
}

/** The key's SDK app signs today's JWT (with the host's ZAK for role 1); without one, the 1.9.1 HMAC. */
async function sign(options: SignatureAppOptions, request: SignatureRequest, credentials: Credentials): Promise<SignatureAnswer> {
  const nowMs = (options.now ?? Date.now)();
  const sdk = options.sdkAppOf?.(request.apiKey);
  if (!sdk) return { signature: generateSignature(request, nowMs) };
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

async function readFields(c: Context, search: string, maxBodyBytes: number): Promise<Record<string, unknown>> {
  const body = await readBody(c, { maxBytes: maxBodyBytes });
  const contentType = c.req.header('content-type');
  if (contentType?.toLowerCase().startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new Refusal('undecodable-params', 'The JSON body could not be parsed.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Refusal('undecodable-params', 'The JSON body must be an object.');
    }
    return parsed as Record<string, unknown>;
  }
  const params: V1Params = await readParams(search, body, contentType, requestBudget(c).maxFields);
  return params;
}

/** A field as text: strings as given, JSON numbers as their decimal form; anything else is invalid. */
function textField(fields: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (value === undefined || value === '') continue;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
    throw invalidParameter(name, 'Expected a single text value.');
  }
  return undefined;
}

function validate(fields: Record<string, unknown>): SignatureRequest {
  const apiKey = textField(fields, 'api_key');
  const apiSecret = textField(fields, 'api_secret');
  if (!apiKey || !apiSecret) throw new Refusal('missing-credentials');
  const meetingNumber = textField(fields, 'meeting_number', 'meetingNumber');
  if (meetingNumber === undefined) throw missingParameter('meeting_number');
  if (!MEETING_NUMBER.test(meetingNumber)) throw invalidParameter('meeting_number', 'A meeting number is 1 to 12 digits.');
  const role = textField(fields, 'role');
  if (role === undefined) throw missingParameter('role');
  if (role !== '0' && role !== '1') throw invalidParameter('role', 'Role is 0 (attendee) or 1 (host).');
  return {
    apiKey,
    apiSecret,
    meetingNumber,
    role: Number(role) as SdkRole,
    expirationSeconds: lifetime(fields),
    videoWebrtcMode: webrtcMode(fields),
  };
}

/** A JWT signature's lifetime (exp − iat): whole seconds within the service's bounds; absent, its default. */
function lifetime(fields: Record<string, unknown>): number | undefined {
  const text = textField(fields, 'expiration_seconds', 'expirationSeconds');
  if (text === undefined) return undefined;
  const { min, max } = JWT_LIFETIME_SECONDS;
  if (!/^\d{1,6}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw invalidParameter('expiration_seconds', `A signature lives ${min} to ${max} seconds (30 minutes to 48 hours).`);
  }
  return Number(text);
}

function webrtcMode(fields: Record<string, unknown>): 0 | 1 | undefined {
  const text = textField(fields, 'video_webrtc_mode', 'videoWebrtcMode');
  if (text === undefined) return undefined;
  if (text !== '0' && text !== '1') throw invalidParameter('video_webrtc_mode', 'The WebRTC video mode is 0 or 1.');
  return Number(text) as 0 | 1;
}
