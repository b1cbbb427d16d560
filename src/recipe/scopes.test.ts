import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../translators/endpoints.js';
import { routesOf, scopesToGrant } from '../translators/kit/scopes.js';
import { declaredRecipe } from './declared.js';
import { scopesToRequest } from './scopes.js';

describe('scopesToRequest', () => {
  it("names each route's account-wide scope, a route with no granular scope by its classic one, and lists routes no scope is known for", () => {
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
      granular: ['user:read:list_users:admin', 'user:read:user:admin', 'x:read'],
      classic: ['user:read:admin', 'x:read'],
      unknown: ['GET /unknown'],
    });
  });

  it("names, for every endpoint, the scopes the gateway's own policy names (the refusals and docs/scopes.md)", () => {
    for (const endpoint of ALL_ENDPOINTS) {
      const recipe = declaredRecipe(endpoint);
      const fromRecipe = scopesToRequest([...recipe.steps, ...recipe.undo]);
      const fromKit = scopesToGrant(routesOf(endpoint));
      expect({ granular: fromRecipe.granular, classic: fromRecipe.classic }, endpoint.path).toEqual({
        granular: [...new Set(fromKit.granular)].sort(),
        classic: [...new Set(fromKit.classic)].sort(),
      });
    }
  });
});
