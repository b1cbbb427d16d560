import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostilePieces } from '../../test/support/hostile-texts.js';
import { createRedactor, isSecretField, redactEmbedded, secretsIn } from './secrets.js';

const SECRET = 'S3cr3t-value-0123456789';

describe('the redactor, by name', () => {
  const redactor = createRedactor('X');

  it("censors secret-named fields whatever their case, at any depth and in arrays, leaving the caller's object alone", () => {
    const line = {
      apiSecret: 's',
      headers: { Authorization: 'Bearer x' },
      a: { b: { c: { password: 'p' } } },
      users: [{ zak: 'z', id: 'u1' }],
    };
    expect(redactor.redact(line)).toEqual({
      apiSecret: 'X',
      headers: { Authorization: 'X' },
      a: { b: { c: { password: 'X' } } },
      users: [{ zak: 'X', id: 'u1' }],
    });
    expect(line.a.b.c.password).toBe('p'); // a copy: the caller's object is left alone
  });

  it('copies only the objects and lists on the way to a secret, and returns a value without one as it is', () => {
    const clean = { id: 'u1', params: { topic: 't' }, v2: [{ path: '/users/me' }] };
    expect(redactor.redact(clean)).toBe(clean);
    const line = { params: { topic: 't', password: 'p' }, v2: [{ path: '/users/me' }], list: [{ id: 1 }, { token: 'k' }] };
    const censored = redactor.redact(line);
    expect(censored).toEqual({ params: { topic: 't', password: 'X' }, v2: [{ path: '/users/me' }], list: [{ id: 1 }, { token: 'X' }] });
    expect(censored).not.toBe(line);
    expect(censored.params).not.toBe(line.params);
    expect(censored.v2).toBe(line.v2);
    expect(censored.list[0]).toBe(line.list[0]);
    expect(line.params.password).toBe('p');
  });

  it('leaves empty secrets, switches and other objects as they are', () => {
    const error = new Error('boom');
    const value = { password: '', token: null, err: error, enable_phone_participants_password: true };
    expect(redactor.redact(value)).toBe(value);
  });

  it('knows the names v1 and v2 carry secrets under, however a client spells them', () => {
    for (const name of [
      'api_secret',
      'api-secret',
      'api_secret ',
      'api_secret\u0000',
      'API_SECRET',
      'apiSecret',
      'password',
      'h323_password',
      'encrypted_password',
      'passcode',
      'token',
      'zak',
      'zpk',
      'jwt',
      'access_token',
      'Authorization',
      'pwd',
      'tk',
    ])
      expect(isSecretField(name), name).toBe(true);
    for (const name of ['api_key', 'email', 'id', 'token_type', 'next_page_token', 'topic']) expect(isSecretField(name), name).toBe(false);
  });

  it('censors secret-named query parameters inside any text, and the fields of an XML or JSON answer kept as text', () => {
    expect(redactor.redact({ start_url: 'https://x/s/123?zak=abcdefgh&lang=en', note: 'pwd=p4ss' })).toEqual({
      start_url: 'https://x/s/123?zak=X&lang=en',
      note: 'pwd=X',
    });
    expect(redactor.redact('<response><id>1</id><zak>eyJ.z</zak></response>')).toBe('<response><id>1</id><zak>X</zak></response>');
    expect(redactor.redact('{"id":"1","token":"abc\\"def","token_type":"bearer"}')).toBe('{"id":"1","token":"X","token_type":"bearer"}');
  });
});

describe('the redactor, named values inside a text', () => {
  const censor = '[Redacted]';
  const own = ['own-api-secret-value', 'sec ret/+?&=1'];
  const redactor = createRedactor(censor, own);
  /** Texts of the pieces a named value is made of, secret-named and not, with the call line's hostile pieces. */
  const piece = fc.oneof(
    fc.constantFrom(
      ...hostilePieces({ redacted: censor, configured: 'configured-secret-0123', own }),
      ...['?', '&', ';', '#', ' ', '=', '<', '>', '</', '"', ':', '\\"', 'zak', 'pwd', 'tk', 'token', 'Token', 'api%5Fsecret', 'topic'],
      ...['<zak>', '</zak>', '<token>', '</token>', '"token":"', '"id":"', 'abcdefgh', 'v=2.0;clid=us06;rid=WEB_0a1b'],
    ),
    fc.stringMatching(/^[\x20-\x7e]{0,6}$/),
  );
  const text = fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join(''));

  it('writes every text as the general rewrite does, whether or not it finds a secret to censor first', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(redactor.text(value)).toBe(redactEmbedded(redactor.fieldName(value), censor));
      }),
      { numRuns: 3_000 },
    );
  });

  it('still censors each secret-named value, and gives back a text it has nothing to censor in as it is', () => {
    expect(redactor.text('v=2.0;clid=us06;rid=WEB_0a1b&zak=abc')).toBe('v=2.0;clid=us06;rid=WEB_0a1b&zak=[Redacted]');
    expect(redactor.text('a <b>1</b> "c":"2" <token>t</token>')).toBe('a <b>1</b> "c":"2" <token>[Redacted]</token>');
    expect(redactor.text('{"id":"1","Token":"x"}')).toBe('{"id":"1","Token":"[Redacted]"}');
    const tracking = 'v=2.0;clid=us06;rid=WEB_0123456789abcdef';
    expect(redactor.text(tracking)).toBe(tracking);
  });
});

describe('the redactor, by value', () => {
  it('replaces a known secret wherever it appears: any field, inside texts and URLs, percent-encoded, in field names, as a number', () => {
    const redactor = createRedactor('X', ['a+b/c=d-0123', SECRET, '12345678']);
    expect(redactor.known).toBe(3);
    expect(
      redactor.redact({
        topic: `meeting ${SECRET}`,
        url: `https://x/?q=${encodeURIComponent('a+b/c=d-0123')}`,
        form: new URLSearchParams({ q: 'a+b/c=d-0123' }).toString(),
        [`{"api_secret":"${SECRET}`]: '"}',
        pin: 12345678,
        list: [SECRET],
      }),
    ).toEqual({ topic: 'meeting X', url: 'https://x/?q=X', form: 'q=X', '{"api_secret":"X': 'X', pin: 'X', list: ['X'] });
  });

  it('ignores secrets too short to tell from ordinary values, which are still redacted by name', () => {
    const redactor = createRedactor('X', ['1234']);
    expect(redactor.known).toBe(0);
    expect(redactor.redact({ id: 91234567, password: '1234' })).toEqual({ id: 91234567, password: 'X' });
  });

  it('learns more secrets with `with`, leaving the first redactor as it was', () => {
    const first = createRedactor('X', [SECRET]);
    const second = first.with(['another-secret-value']);
    expect(second.known).toBe(2);
    expect(first.redact('another-secret-value')).toBe('another-secret-value');
    expect(second.redact(`${SECRET} another-secret-value`)).toBe('X X');
    // Asked again for the same secrets (a key's next call), the same redactor: it is made once.
    expect(first.with(['another-secret-value'])).toBe(second);
    expect(first.with([SECRET])).toBe(first);
  });
});

describe('request params', () => {
  it('never writes a name that is not a form field name (a JSON body read as a form), and keeps list spellings', () => {
    const redactor = createRedactor('X');
    expect(
      redactor.redactParams({
        topic: 't',
        'member_ids[]': ['1'],
        'custom_questions[0][title]': 'q',
        '{"api_key":"k","api_secret":"abc': '"}',
        '<xml>': 'y',
        'api-secret': 'z',
      }),
    ).toEqual({
      topic: 't',
      'member_ids[]': ['1'],
      'custom_questions[0][title]': 'q',
      'X field 1': 'X',
      'X field 2': 'X',
      'api-secret': 'X',
    });
  });
});

describe('secretsIn', () => {
  it('collects the values of secret-named fields and query parameters, long enough to redact by value', () => {
    const found = secretsIn({
      token: 'token-value-1',
      users: [{ zak: 'zak-value-12' }],
      start_url: 'https://x/s/1?zak=zak-in-url-1&x=1',
      join_url: 'https://x/w/1?tk=tk%2Bvalue-1',
      password: '123',
      id: 'not-a-secret-id',
    });
    expect([...found].sort()).toEqual(['tk+value-1', 'token-value-1', 'zak-in-url-1', 'zak-value-12']);
  });
});
