import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { Refusal } from '../translators/kit/failures.js';
import { dataTypeOf } from '../v1/serialize.js';
import type { V1Params } from './params.js';
import { readBody, requestBudget, type BodyLimits } from '../http/request-body.js';
import { refusalOfUnread } from './unread.js';
import { headerOf, type ReadCall, type RequestCall, type V1Call } from './v1-call.js';

/** How a way in decodes its fields: the facade's form reading (`readParams`), or one that also takes JSON. */
export type FieldsDecoder<P> = (search: string, body: Buffer, contentType: string | undefined, maxFields: number) => P | Promise<P>;

/**
 * The first step's first half, every way in's that reads v1 fields (the facade, /sdk/signature):
 * a POST, its body read within the limits, its fields decoded, wherever the client put them. The
 * one place a body that could not be read, or fields that could not be decoded, become refusals
 * (through refusalOfUnread); a broken body also closes the connection.
 */
export async function readFields<P>(call: RequestCall, limits: Partial<BodyLimits>, decode: FieldsDecoder<P>): Promise<P> {
  const { c } = call;
  if (c.req.method !== 'POST') throw new Refusal('not-a-post', `v1 calls are POST requests, not ${c.req.method}.`);
  let body: Buffer;
  try {
    body = await readBody(c, limits);
  } catch (error) {
    call.closeConnection = true; // the rest of a broken body must not be read as the next request
    throw refusalOfUnread(error);
  }
  try {
    return await decode(call.search, body, headerOf(c, 'content-type'), requestBudget(c).maxFields);
  } catch (error) {
    throw refusalOfUnread(error);
  }
}

/**
 * The first step's second half, the facade's own: what the call asks. Its params (as v1 read them:
 * readParams trims them and drops blank fields as it reads), the data_type it wants and the
 * endpoint its path names, each refused through the failure table (mappings/errors.ts) when it is
 * not one v1 knew.
 */
export function read(call: V1Call, fields: V1Params, registry: ReadonlyMap<string, EndpointDefinition>): ReadCall {
  const paramsRead = call.reach({ call, params: fields });
  const dataType = dataTypeOf(paramsRead.params.data_type);
  if (dataType === undefined) throw new Refusal('bad-data-type');
  call.dataType = dataType;
  const endpointPath = canonicalPath(call.path);
  const endpoint = registry.get(endpointPath);
  if (!endpoint) throw new Refusal('unknown-path', `Unknown v1 endpoint: ${call.path}.`);
  // Spelt out, not spread from paramsRead: fields added to a spread object take V8's slow path in
  // Node 20 (about 5 µs; 1.7% of the gateway's CPU at 2,500 checkemail calls a second).
  return call.reach({ call, params: fields, endpoint, endpointPath });
}
