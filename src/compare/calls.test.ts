import { describe, expect, it } from 'vitest';
import { V2 } from '../v2-contract/v2-routes.js';
import { SecretValues } from '../shared/secrets.js';
import type { V1CallRecord } from '../v1-steps/observe.js';
import { toRecordedCall } from './calls.js';

/**
 * A recorded call keeps each v2 call's query as sent (what a rewrite against v2 must send too, read
 * by the recipe), its values as text and its secrets replaced like the params': by name, and by value
 * where a param or the request's own api_secret gave the value away.
 */

const record = (query: V1CallRecord['v2Calls'][number]['query'], params: Record<string, string> = {}): V1CallRecord => ({
  requestId: 'r1',
  traceId: '0'.repeat(32),
  spanId: '0'.repeat(16),
  startedAt: new Date('2024-05-01T10:00:00Z'),
  method: 'POST',
  rawPath: '/v1/report/getaccountreport',
  endpoint: '/report/getaccountreport',
  apiKey: 'key',
  secrets: new SecretValues(['the-api-secret-value']),
  params,
  errorCode: undefined,
  pairProven: true,
  answer: {},
  dataType: 'JSON',
  ms: 3,
  v2Calls: [{ route: V2.reports.users, method: 'GET', path: '/report/users', query, undo: false, status: 200, ms: 1 }],
});

describe('a recorded v2 call', () => {
  it('keeps its query as the text sent, fields left undefined out', () => {
    const [v2] = toRecordedCall(
      record({ type: 'active', from: '2024-05-01', page_size: 300, mc: undefined, next_page_token: 'abc' }),
    ).v2Calls;
    expect(v2!.query).toEqual({ type: 'active', from: '2024-05-01', page_size: '300', next_page_token: 'abc' });
  });

  it('has no query where none was sent', () => {
    expect(toRecordedCall(record(undefined)).v2Calls[0]).not.toHaveProperty('query');
    expect(toRecordedCall(record({ mc: undefined })).v2Calls[0]).not.toHaveProperty('query');
  });

  it('never keeps a secret in it: by name, by the value of a secret param, or the api_secret', () => {
    const [v2] = toRecordedCall(
      record(
        { zak: 'zak-token-12345678', q: 'the-api-secret-value', p: 'my-password-9999', type: 'active' },
        { password: 'my-password-9999' },
      ),
    ).v2Calls;
    expect(v2!.query).toEqual({ zak: 'redacted', q: 'redacted', p: 'redacted', type: 'active' });
  });
});
