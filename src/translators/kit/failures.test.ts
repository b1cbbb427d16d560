import { describe, expect, it } from 'vitest';
import { FAILURES, levelOf, type FailureKind, type FailureRow, type RefusalKind } from '../../../mappings/errors.js';
import { bugBehind, Failure } from '../../shared/failure.js';
import { DotSegmentValue } from '../../v2-contract/v2-path.js';
import { V1Code, V1Error, V1_RATE_LIMIT_MESSAGE } from '../../v1/errors.js';
import { Refusal, failureKindOf, isBug, toV1Error } from './failures.js';

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

describe('the failure family', () => {
  it('names no kind but the one a failure carries: anything else thrown is a bug (internal)', () => {
    class PlantedFailure extends Failure {
      readonly kind = 'upstream-timeout';
    }
    expect(failureKindOf(new PlantedFailure('no answer in time.'))).toBe('upstream-timeout');
    expect(toV1Error(new PlantedFailure('no answer in time.')).toBody().error).toEqual({ code: 503, message: 'no answer in time.' });
    class LibraryError extends Error {}
    for (const bug of [new Error('planted'), new LibraryError('planted'), new TypeError('planted'), 'a thrown string']) {
      expect(failureKindOf(bug)).toBe('internal');
      expect(isBug(bug)).toBe(true);
      expect(toV1Error(bug).toBody().error).toEqual({
        code: 503,
        message: 'Internal gateway error. Nothing is known to have been changed.',
      });
    }
  });

  it('keeps a bug one when a v1 error tells of it (its cause), and a failure what it was', () => {
    const bug = new Error('planted');
    const told = new V1Error(V1Code.upstreamUnavailable, 'Created, but reading it back failed.', {}, bug);
    expect(failureKindOf(told)).toBe('internal');
    expect(bugBehind(told)).toBe(bug);
    const failed = new V1Error(V1Code.invalidParameter, 'Created, but reading it back failed.', {}, new DotSegmentValue('..'));
    expect(failureKindOf(failed)).toBe('v1-error');
    expect(isBug(failed)).toBe(false);
    expect(bugBehind(failed)).toBeUndefined();
  });

  it('is told its level by whom it blames: only a bug at error', () => {
    const atError = (Object.keys(FAILURES) as FailureKind[]).filter((kind) => levelOf(kind) === 'error');
    expect(atError).toEqual(['internal']);
    // @ts-expect-error a row without its blame (so without a level) is refused by the compiler
    const row: FailureRow = { v1Code: 300, v1Message: 'keep', why: 'no blame' };
    expect(row.why).toBe('no blame');
  });
});
