import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { Refusal } from '../translators/kit/failures.js';
import { dataTypeOf } from '../v1/serialize.js';
import type { V1Params } from './params.js';
import { readBody, requestBudget, type BodyLimits } from '../http/request-body.js';
import { refusalOfUnread } from './unread.js';
import { headerOf, StepsOfCall, type ReadCall, type RequestCall, type V1Call } from './v1-call.js';

/** How a way in decodes its fields: the facade's form reading (`readParams`), or one that also takes JSON. */
export type FieldsDecoder<P> = (search: string, body: Buffer, contentType: string | undefined, maxFields: number) => P | Promise<P>;

/**
 * The first step's first half, every way in's that reads v1 fields (the facade, /sdk/signature):
 * a POST, its body read within the limits, its fields decoded, wherever the client put them. The
 * one place a body that could not be read, or fields that could not be decoded, become refusals
 * (through refusalOfUnread); a broken body also closes the connection.
 */
export function readFields<P>(call: RequestCall, limits: Partial<BodyLimits>, decode: FieldsDecoder<P>): Promise<P> {
  const { c } = call;
  if (c.req.method !== 'POST') return Promise.reject(new Refusal('not-a-post', `v1 calls are POST requests, not ${c.req.method}.`));
  // One promise of its own, the body's: fields decoded at once (every form but a multipart one) are
  // handed on without another turn of the microtask queue.
  return readBody(c, limits).then(
    (body) => decodeFields(call, body, decode),
    (error: unknown) => {
      call.closeConnection = true; // the rest of a broken body must not be read as the next request
      throw refusalOfUnread(error);
    },
  );
}

function decodeFields<P>(call: RequestCall, body: Buffer, decode: FieldsDecoder<P>): P | Promise<P> {
  try {
    const fields = decode(call.search, body, headerOf(call.c, 'content-type'), requestBudget(call.c).maxFields);
    return fields instanceof Promise ? fields.catch(refuseUnread) : fields;
  } catch (error) {
    throw refusalOfUnread(error);
  }
}

function refuseUnread(error: unknown): never {
  throw refusalOfUnread(error);
}

/**
 * The first step's second half, the facade's own: what the call asks. Its params (as v1 read them:
 * readParams trims them and drops blank fields as it reads), the data_type it wants and the
 * endpoint its path names, each refused through the failure table (mappings/errors.ts) when it is
 * not one v1 knew.
 */
export function read(call: V1Call, fields: V1Params, registry: ReadonlyMap<string, EndpointDefinition>): ReadCall {
  // One object for every step's result (StepsOfCall), reached now: its params are known even when the rest is refused.
  const steps = call.reach(new StepsOfCall(call, fields));
  const dataType = dataTypeOf(fields.data_type);
  if (dataType === undefined) throw new Refusal('bad-data-type');
  call.dataType = dataType;
  const endpointPath = canonicalPath(call.path);
  const endpoint = registry.get(endpointPath);
  if (!endpoint) throw new Refusal('unknown-path', `Unknown v1 endpoint: ${call.path}.`);
  return steps.read(endpoint, endpointPath);
}
