import { describe, expect, it } from 'vitest';
import { tooLarge } from '../http/request-body.js';
import { Refusal } from '../translators/kit/failures.js';
import { ParamDecodeError } from './params.js';
import { refusalOfUnread } from './unread.js';

describe('refusalOfUnread', () => {
  it('makes a body that could not be read, and fields that could not be decoded, their refusals with their messages', () => {
    const body = refusalOfUnread(tooLarge(64));
    expect(body).toBeInstanceOf(Refusal);
    expect(body).toMatchObject({ kind: 'unreadable-body', message: 'The request body is larger than the 64 bytes v1gate accepts.' });
    const fields = refusalOfUnread(new ParamDecodeError('Unsupported charset "x".'));
    expect(fields).toMatchObject({ kind: 'undecodable-params', message: 'Unsupported charset "x".' });
  });

  it('hands any other error back as it is', () => {
    const bug = new TypeError('a bug');
    expect(refusalOfUnread(bug)).toBe(bug);
    const refusal = new Refusal('bad-data-type');
    expect(refusalOfUnread(refusal)).toBe(refusal);
  });
});
