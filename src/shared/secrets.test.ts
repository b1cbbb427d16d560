import { describe, expect, it } from 'vitest';
import { censorSecrets, isSecretField } from './secrets.js';

describe('censorSecrets', () => {
  it("censors secret-named fields whatever their case, at any depth and in arrays, leaving the caller's object alone", () => {
    const line = {
      apiSecret: 's',
      headers: { Authorization: 'Bearer x' },
      a: { b: { c: { password: 'p' } } },
      users: [{ zak: 'z', id: 'u1' }],
    };
    expect(censorSecrets(line, 'X')).toEqual({
      apiSecret: 'X',
      headers: { Authorization: 'X' },
      a: { b: { c: { password: 'X' } } },
      users: [{ zak: 'X', id: 'u1' }],
    });
    expect(line.a.b.c.password).toBe('p'); // a copy: the caller's object is left alone
  });

  it('copies only the objects and lists on the way to a secret, and returns a value without one as it is', () => {
    const clean = { id: 'u1', params: { topic: 't' }, v2: [{ path: '/users/me' }] };
    expect(censorSecrets(clean, 'X')).toBe(clean);
    const line = { params: { topic: 't', password: 'p' }, v2: [{ path: '/users/me' }], list: [{ id: 1 }, { token: 'k' }] };
    const censored = censorSecrets(line, 'X') as typeof line;
    expect(censored).toEqual({ params: { topic: 't', password: 'X' }, v2: [{ path: '/users/me' }], list: [{ id: 1 }, { token: 'X' }] });
    expect(censored).not.toBe(line);
    expect(censored.params).not.toBe(line.params);
    expect(censored.v2).toBe(line.v2);
    expect(censored.list).not.toBe(line.list);
    expect(censored.list[0]).toBe(line.list[0]);
    expect(line.params.password).toBe('p');
    expect(line.list[1]).toEqual({ token: 'k' });
  });

  it('leaves empty secrets empty and other objects as they are', () => {
    const error = new Error('boom');
    expect(censorSecrets({ password: '', token: null, err: error }, 'X')).toEqual({ password: '', token: null, err: error });
  });

  it('knows the names v1 and v2 carry secrets under', () => {
    for (const name of ['api_secret', 'password', 'h323_password', 'token', 'zak', 'jwt', 'access_token', 'Authorization'])
      expect(isSecretField(name)).toBe(true);
    for (const name of ['api_key', 'email', 'id', 'token_type']) expect(isSecretField(name)).toBe(false);
  });
});
