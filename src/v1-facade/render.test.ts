import { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { DotSegmentValue } from '../v2-contract/v2-path.js';
import { Refusal } from '../translators/kit/failures.js';
import { tellingEach, type V1CallRecord } from '../v1-steps/observe.js';
import { fail, observe, render } from './render.js';
import { defineEndpoint } from '../translators/kit/define.js';
import { v1Params } from '../v1/param-types.js';
import { V1Call } from '../v1-steps/v1-call.js';

const userGet = defineEndpoint({ path: '/user/get', params: v1Params({}), v2Calls: [], handle: async () => ({ ok: true }) });

function callOf(target = '/v1/user/get', observed = false, keepAlive = true): V1Call {
  const request = new Request(`http://v1gate.test${target}`, { method: 'POST' });
  return new V1Call(new Context(request), new URL(request.url).pathname, keepAlive, observed);
}

describe('render', () => {
  it('answers the v1 object in JSON, HTTP 200, with the call’s headers', async () => {
    const call = callOf();
    call.answer = { id: 'u1' };
    call.upstreamCalls = 2;
    call.headers['X-RateLimit-Limit'] = '10';
    const response = render(call);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'u1' });
    expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(response.headers.get('x-v2-calls')).toBe('2');
    expect(response.headers.get('x-request-id')).toBe(call.requestId);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(response.headers.get('connection')).toBeNull();
  });

  it('closes the connection when keep-alive is off', () => {
    expect(render(callOf('/v1/user/get', false, false)).headers.get('connection')).toBe('close');
  });

  it('answers an error read before the params in the query’s data_type', async () => {
    const call = callOf('/v1/user/get?data_type=xml');
    fail(call, new Refusal('not-a-post', 'v1 calls are POST requests, not GET.'));
    const response = render(call);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
    expect(await response.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><response><error><code>300</code><message>v1 calls are POST requests, not GET.</message></error></response>',
    );
  });

  it('answers an error after the params in their data_type, with its own headers', async () => {
    const call = callOf('/v1/user/get?data_type=xml');
    call.dataType = 'JSON';
    fail(call, new Refusal('inbound-limited', undefined, { 'Retry-After': '1' }));
    const response = render(call);
    expect(await response.json()).toEqual({ error: { code: 403, message: expect.stringContaining('maximum number of api requests') } });
    expect(response.headers.get('retry-after')).toBe('1');
  });

  it('names the field that held a dot-segment value', () => {
    const call = callOf();
    call.reach({ call, params: { id: 'g1', member_ids: ['u1', '..'] } });
    fail(call, new DotSegmentValue('..'));
    expect(call.answer).toEqual({ error: { code: 300, message: 'Invalid parameter: member_ids. ".." names no resource.' } });
  });
});

describe('observe', () => {
  it('tells every observer one record without the credentials, past one that throws', () => {
    const call = callOf('/v1/User/Get', true);
    const params = { api_key: 'key', api_secret: 'secret', id: 'u1' };
    call.reach({ call, params, endpoint: userGet, endpointPath: '/user/get' });
    call.answer = { id: 'u1' };
    const seen: V1CallRecord[] = [];
    observe(
      call,
      tellingEach([
        () => {
          throw new Error('broken observer');
        },
        (record) => seen.push(record),
      ]),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      rawPath: '/v1/User/Get',
      endpoint: '/user/get',
      apiKey: 'key',
      params: { id: 'u1' },
      errorCode: undefined,
      dataType: 'JSON',
      v2Calls: [],
    });
  });

  it('makes no record for a call made without observers', () => {
    const seen: unknown[] = [];
    observe(callOf(), (record) => seen.push(record));
    expect(seen).toEqual([]);
  });
});
