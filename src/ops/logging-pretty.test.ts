import { Writable } from 'node:stream';
import pino from 'pino';
import { prettyFactory } from 'pino-pretty';
import { describe, expect, it } from 'vitest';
import { callLogObserver, loggerSettings, PRETTY_OPTIONS } from './logging.js';
import type { V1CallRecord } from '../v1-steps/observe.js';

/** What a person at a terminal reads for one v1 call: one line, its fields on it, no secret. */
describe('the pretty log', () => {
  it('writes one line per call, with its endpoint, its v2 calls and no repeated service fields', () => {
    const json: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        json.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const logger = pino(loggerSettings({ level: 'info' }), sink);
    const record = {
      requestId: 'r-1',
      method: 'POST',
      endpoint: '/user/get',
      rawPath: '/v1/user/get',
      ms: 12.34,
      apiKey: 'a-key',
      params: { id: 'u1', api_secret: 'a-secret-never-shown' },
      secrets: ['a-secret-never-shown'],
      v2Calls: [
        { method: 'GET', path: '/users/u1', status: 200, ms: 5.1 },
        { method: 'GET', path: '/users/u1/settings', status: 200, ms: 4.2 },
      ],
    } as unknown as V1CallRecord;
    callLogObserver(logger)(record);
    expect(json).toHaveLength(1);
    const pretty = prettyFactory({ ...PRETTY_OPTIONS, colorize: false })(json[0]!);
    expect(pretty.trimEnd().split('\n')).toHaveLength(1);
    expect(pretty).toContain('v1 call');
    expect(pretty).toContain('/user/get');
    expect(pretty).toContain('/users/u1/settings');
    expect(pretty).not.toContain('a-secret-never-shown');
    expect(pretty).not.toMatch(/"service"|"pid"/);
  });
});
