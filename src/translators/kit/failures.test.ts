import { describe, expect, it } from 'vitest';
import { FAILURES, type RefusalKind } from '../../../mappings/errors.js';
import { DotSegmentValue } from '../../shared/v2-path.js';
import { V1Code, V1_RATE_LIMIT_MESSAGE } from '../../v1/errors.js';
import { Refusal, failureKindOf, toV1Error } from './failures.js';

describe('refusals through the failure table', () => {
  it('a refusal is its own kind, answered with its row’s code and its own message where the row keeps it', () => {
    const refusal = new Refusal('not-a-post', 'v1 calls are POST requests, not GET.');
    expect(failureKindOf(refusal)).toBe('not-a-post');
    expect(toV1Error(refusal).toBody()).toEqual({ error: { code: 300, message: 'v1 calls are POST requests, not GET.' } });
  });

  it('a row that fixes its message answers it whatever the refusal says', () => {
    expect(toV1Error(new Refusal('missing-credentials')).toBody().error).toEqual({
      code: V1Code.missingCredentials,
      message: 'Api key and secret are required.',
    });
    expect(toV1Error(new Refusal('key-not-allowed', 'anything')).toBody().error.code).toBe(V1Code.invalidCredentials);
  });

  it('an inbound refusal carries its rate-limit headers to the answer', () => {
    const v1 = toV1Error(new Refusal('inbound-limited', undefined, { 'Retry-After': '1', 'X-RateLimit-Limit': '10' }));
    expect(v1.toBody().error).toEqual({ code: 403, message: V1_RATE_LIMIT_MESSAGE });
    expect(v1.headers).toEqual({ 'Retry-After': '1', 'X-RateLimit-Limit': '10' });
  });

  it('every refusal row names a v1 code of its own', () => {
    const kinds: RefusalKind[] = ['not-a-post', 'unreadable-body', 'bad-data-type', 'unknown-path', 'shutting-down'];
    for (const kind of kinds) expect(typeof FAILURES[kind].v1Code).toBe('number');
  });
});

describe('a dot-segment value', () => {
  it('names the v1 field that holds it', () => {
    const v1 = toV1Error(new DotSegmentValue('..'), undefined, (value) => (value === '..' ? 'member_ids' : undefined));
    expect(v1.toBody().error).toEqual({ code: 300, message: 'Invalid parameter: member_ids. ".." names no resource.' });
  });

  it('says id when no field holds it', () => {
    expect(toV1Error(new DotSegmentValue('.')).toBody().error.message).toBe('Invalid parameter: id. "." names no resource.');
  });
});
