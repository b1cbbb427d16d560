import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { Refusal } from '../translators/kit/failures.js';
import { dataTypeOf } from '../v1/serialize.js';
import { readParams, withoutBlankFields, type V1Params } from './params.js';
import { readBody, requestBudget, type BodyLimits } from '../shared/request-body.js';
import { refusalOfUnread } from './unread.js';
import { headerOf, type ReadCall, type V1Call } from './v1-call.js';

/**
 * The first step: what the call asks. A POST, its body read within the limits, its params
 * wherever the client put them, the data_type it wants and the endpoint its path names. Every
 * way this fails is a refusal of the failure table (mappings/errors.ts).
 */
export async function read(call: V1Call, registry: ReadonlyMap<string, EndpointDefinition>, limits: BodyLimits): Promise<ReadCall> {
  const { c } = call;
  if (c.req.method !== 'POST') throw new Refusal('not-a-post', `v1 calls are POST requests, not ${c.req.method}.`);
  let body: Buffer;
  try {
    body = await readBody(c, limits);
  } catch (error) {
    call.closeConnection = true; // the rest of a broken body must not be read as the next request
    throw refusalOfUnread(error);
  }
  let params: V1Params;
  try {
    params = withoutBlankFields(await readParams(call.search, body, headerOf(c, 'content-type'), requestBudget(c).maxFields));
  } catch (error) {
    throw refusalOfUnread(error);
  }
  const paramsRead = call.reach({ call, params });
  const dataType = dataTypeOf(params.data_type);
  if (dataType === undefined) throw new Refusal('bad-data-type');
  call.dataType = dataType;
  const endpointPath = canonicalPath(call.path);
  const endpoint = registry.get(endpointPath);
  if (!endpoint) throw new Refusal('unknown-path', `Unknown v1 endpoint: ${call.path}.`);
  return call.reach({ ...paramsRead, endpoint, endpointPath });
}
