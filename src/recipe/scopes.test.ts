import { describe, expect, it } from 'vitest';
import { scopesToRequest } from './scopes.js';

describe('scopesToRequest', () => {
  it('names one scope per route, the account-wide one first, and uses a chosen scope again where it opens another route', () => {
    const chosen = scopesToRequest([
      {
        route: 'GET /users/{userId}',
        scopes: { granular: ['user:read:user', 'user:read:user:admin'], classic: ['user:read', 'user:read:admin'] },
      },
      { route: 'GET /users', scopes: { granular: ['user:read:list_users:admin'], classic: ['user:read:admin'] } },
      { route: 'GET /x', scopes: { granular: [], classic: ['x:read'] } },
      { route: 'GET /unknown', scopes: null },
    ]);
    expect(chosen).toEqual({
      granular: ['user:read:list_users:admin', 'user:read:user:admin'],
      classic: ['user:read:admin', 'x:read'],
      unknown: ['GET /unknown'],
    });
  });
});
