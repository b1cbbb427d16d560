import { Hono, type Context } from 'hono';
import { inboundOwnerOf } from '../ratelimit/inbound-limiter.js';
import { readBody, requestBudget } from '../shared/request-body.js';
import { Refusal, toV1Error } from '../translators/kit/failures.js';
import { pairProofOf } from '../upstream/pair-proof.js';
import { invalidParameter, missingParameter, v1ErrorResponse } from '../v1/errors.js';
import { readParams, type V1Params } from '../v1-facade/params.js';
import { refusalOfUnread } from '../v1-facade/unread.js';
import type { InboundGate } from '../v1-facade/app.js';
import type { CredentialsCheck } from './credentials-check.js';
import { generateSignature, MEETING_NUMBER, type SdkRole } from './signature.js';

/**
 * POST /sdk/signature: the 1.9.1 join signature made on the server, so the API secret stays off
 * the page. Fields as a form (like every v1 call) or as JSON; `meetingNumber` is accepted beside
 * `meeting_number` because that is the SDK's own name. Answers `{"signature": "..."}` or a v1 error
 * envelope, like the rest of the gateway.
 */
export const SDK_SIGNATURE_PATH = '/sdk/signature';

export interface SignatureAppOptions {
  credentials: CredentialsCheck;
  inbound?: InboundGate;
  maxBodyBytes: number;
  now?: () => number;
}

interface SignatureRequest {
  apiKey: string;
  apiSecret: string;
  meetingNumber: string;
  role: SdkRole;
}

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
      const signature = generateSignature(request, (options.now ?? Date.now)());
      return c.json({ signature }, 200, { ...headers, 'Cache-Control': 'no-store' });
    } catch (error) {
      return v1ErrorResponse(toV1Error(refusalOfUnread(error)), headers);
    }
  });
  return app;
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
  return { apiKey, apiSecret, meetingNumber, role: Number(role) as SdkRole };
}
