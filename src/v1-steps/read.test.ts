import { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../translators/kit/failures.js';
import { defineEndpoint } from '../translators/kit/define.js';
import { buildRegistry } from '../translators/kit/registry.js';
import { v1Params } from '../v1/param-types.js';
import { ParamDecodeError, readParams } from './params.js';
import { read, readFields } from './read.js';
import { RequestCall, V1Call } from './v1-call.js';

const ping = defineEndpoint({ path: '/test/ping', params: v1Params({}), v2Calls: [], handle: async () => ({ ok: true }) });
const registry = buildRegistry([ping]);
const limits = { maxBytes: 64, idleTimeoutMs: 1_000 };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

function callOf(target: string, init: RequestInit = { method: 'POST' }): V1Call {
  const request = new Request(`http://v1gate.test${target}`, init);
  return new V1Call(new Context(request), new URL(request.url).pathname, true, false);
}

/** The facade's read: the fields, then what they ask. */
async function readCall(call: V1Call) {
  return read(call, await readFields(call, limits, readParams), registry);
}

async function refusalOf(reading: V1Call | Promise<unknown>): Promise<Refusal> {
  const error: unknown = await (reading instanceof V1Call ? readCall(reading) : reading).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Refusal);
  return error as Refusal;
}

describe('read', () => {
  it('finds the params (body over query), the data_type and the endpoint of any letter case', async () => {
    const call = callOf('/V1/Test/Ping/?a=query&b=query', { method: 'POST', headers: form, body: 'a=body&data_type=xml&blank=' });
    const asked = await readCall(call);
    expect(asked.params).toEqual({ a: 'body', b: 'query', data_type: 'xml' });
    expect(call.dataType).toBe('XML');
    expect(asked.endpoint).toBe(ping);
    expect(asked.endpointPath).toBe('/test/ping');
    expect(call.reached).toBe(asked);
  });

  it('refuses a method other than POST, naming it', async () => {
    const refusal = await refusalOf(callOf('/v1/test/ping', { method: 'GET' }));
    expect(refusal.kind).toBe('not-a-post');
    expect(refusal.message).toBe('v1 calls are POST requests, not GET.');
  });

  it('refuses a body past the limit and closes the connection', async () => {
    const call = callOf('/v1/test/ping', { method: 'POST', headers: form, body: `a=${'x'.repeat(100)}` });
    expect((await refusalOf(call)).kind).toBe('unreadable-body');
    expect(call.closeConnection).toBe(true);
  });

  it('refuses fields that cannot be decoded, keeping the connection', async () => {
    const call = callOf('/v1/test/ping', { method: 'POST', headers: form, body: 'a=%zz' });
    expect((await refusalOf(call)).kind).toBe('undecodable-params');
    expect(call.closeConnection).toBe(false);
  });

  it('refuses a data_type other than JSON or XML, after reading the params', async () => {
    const call = callOf('/v1/test/ping', { method: 'POST', headers: form, body: 'data_type=csv' });
    expect((await refusalOf(call)).kind).toBe('bad-data-type');
    expect(call.reached?.params).toEqual({ data_type: 'csv' });
    expect(call.reached?.endpoint).toBeUndefined();
    expect(call.dataType).toBeUndefined();
  });

  it('refuses a path no endpoint serves, naming it as sent', async () => {
    const refusal = await refusalOf(callOf('/v1/Test/Pong', { method: 'POST', headers: form, body: 'a=1' }));
    expect(refusal.kind).toBe('unknown-path');
    expect(refusal.message).toBe('Unknown v1 endpoint: /v1/Test/Pong.');
  });

  it('reads the fields of any way in with its own decoder, refusing what that decoder cannot decode as it refuses a form', async () => {
    const json = { 'content-type': 'application/json' };
    const decodeJson = (_search: string, body: Buffer) => {
      try {
        return JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        throw new ParamDecodeError('Not JSON.');
      }
    };
    const post = (body: string) =>
      new RequestCall(new Context(new Request('http://v1gate.test/sdk/signature', { method: 'POST', headers: json, body })));
    expect(await readFields(post('{"role":0}'), limits, decodeJson)).toEqual({ role: 0 });
    const refusal = await refusalOf(readFields(post('{"role"'), limits, decodeJson));
    expect(refusal).toMatchObject({ kind: 'undecodable-params', message: 'Not JSON.' });
    const tooLong = post(`{"a":"${'x'.repeat(100)}"}`);
    expect((await refusalOf(readFields(tooLong, limits, decodeJson))).kind).toBe('unreadable-body');
    expect(tooLong.closeConnection).toBe(true);
    const bug = new TypeError('a bug');
    const failing = () => {
      throw bug;
    };
    expect(await readFields(post('{}'), limits, failing).catch((e: unknown) => e)).toBe(bug);
  });
});
