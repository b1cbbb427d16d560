import { describe, expect, it } from 'vitest';
import { V1Error, renderV1Error } from '../../v1/errors.js';
import { v1ErrorAnswer } from './error-answer.js';
import { Refusal } from './failures.js';

describe('v1ErrorAnswer', () => {
  const error = new V1Error(300, 'Invalid parameter: topic. <b> & "quotes"', { 'Retry-After': '2' });

  it('answers HTTP 200 with the error’s own headers, the caller’s and the content type', async () => {
    const response = v1ErrorAnswer(error, { headers: { connection: 'close' }, dataType: 'XML' });
    expect(response.status).toBe(200);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('connection')).toBe('close');
    expect(response.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
    expect(await response.text()).toBe(renderV1Error(error, 'XML'));
  });

  it('reads any failure through the failure table, in JSON, with the status a path outside v1 asks for', async () => {
    const response = v1ErrorAnswer(new Refusal('unknown-path', 'Unknown path: /nowhere.'), { status: 404 });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.message).toBe('Unknown path: /nowhere.');
    expect(typeof body.error.code).toBe('number');
  });
});
