import type { Context } from 'hono';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { Refusal } from '../translators/kit/failures.js';
import { dataTypeOf } from '../v1/serialize.js';
import type { Bindings } from './call-context.js';
import { ParamDecodeError, readParams, withoutBlankFields, type V1Params } from './params.js';
import { BodyReadError, readRawBody, type BodyLimits } from './raw-body.js';
import { headerOf, type V1Call } from './v1-call.js';

/**
 * The first step: what the call asks. A POST, its body read within the limits, its params
 * wherever the client put them, the data_type it wants and the endpoint its path names. Every
 * way this fails is a refusal of the failure table (mappings/errors.ts).
 */
export async function read(call: V1Call, registry: ReadonlyMap<string, EndpointDefinition>, limits: BodyLimits): Promise<void> {
  const { c } = call;
  if (c.req.method !== 'POST') throw new Refusal('not-a-post', `v1 calls are POST requests, not ${c.req.method}.`);
  let body: Buffer;
  try {
    body = await readBody(c, limits);
  } catch (error) {
    call.closeConnection = true; // the rest of a broken body must not be read as the next request
    throw error instanceof BodyReadError ? new Refusal('unreadable-body', error.message) : error;
  }
  let params: V1Params;
  try {
    params = withoutBlankFields(await readParams(call.search, body, headerOf(c, 'content-type')));
  } catch (error) {
    throw error instanceof ParamDecodeError ? new Refusal('undecodable-params', error.message) : error;
  }
  call.params = params;
  const dataType = dataTypeOf(params.data_type);
  if (dataType === undefined) throw new Refusal('bad-data-type');
  call.dataType = dataType;
  const v1Path = canonicalPath(call.path);
  const endpoint = registry.get(v1Path);
  if (!endpoint) throw new Refusal('unknown-path', `Unknown v1 endpoint: ${call.path}.`);
  call.endpoint = endpoint;
  call.endpointPath = v1Path;
}

/** Set on a socket whose request body ran past its Content-Length (see server.ts). */
export const BODY_OVERFLOW = Symbol.for('v1gate.bodyOverflow');

/** The body bytes: straight from the socket under Node (with limits), else from the Request. */
async function readBody(c: Context<{ Bindings: Bindings }>, limits: BodyLimits): Promise<Buffer> {
  const incoming = c.env?.incoming;
  if (!incoming) {
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (bytes.length > limits.maxBytes)
      throw new BodyReadError('too-large', `The request body is larger than the ${limits.maxBytes} bytes v1gate accepts.`);
    return bytes;
  }
  const body = await readRawBody(incoming, limits);
  // The parser saw bytes past Content-Length (a client that counted characters, not bytes):
  // what we read is a truncated body, so refuse it rather than act on part of it.
  // The server marks the socket itself (server.ts); Node's Socket type has no room for our mark.
  if ((incoming.socket as unknown as Record<symbol, unknown>)[BODY_OVERFLOW]) {
    throw new BodyReadError(
      'incomplete',
      'The request body is longer than its Content-Length announced. Count Content-Length in bytes, not characters.',
    );
  }
  return body;
}
