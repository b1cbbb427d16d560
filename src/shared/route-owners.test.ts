import { describe, expect, it } from 'vitest';
import { pathBelow, RouteTable, ROUTE_OWNERS, ROUTES } from './route-owners.js';

/** The patterns each reader kept before the table: the table answers every path as they did. */
const BEFORE = {
  call: /^\/+(v1|sdk)\/+[^/?#]/i,
  plainJson: /^\/+(webhooks|status)(\/|$)/i,
  facade: /^\/v1\/[^/]/i,
  server: /^\/+v1\//i,
};

const PATHS = [
  '/v1',
  '/v1/',
  '/V1/',
  '/v1/user/get',
  '/V1/User/Get',
  '//v1//user/get',
  '/v1x/user/get',
  '/v10/user',
  '/sdk',
  '/sdk/signature',
  '/SDK/Signature',
  '/webhooks',
  '/webhooks/v2',
  '/WEBHOOKS/dead-letters',
  '/webhooksx',
  '/status',
  '/status/data',
  '/statuses',
  '/metrics',
  '/v2/users',
  '/',
  '/nothing/here',
  '/v1?x=1',
];

describe('the route table', () => {
  it.each(PATHS)('answers %s as the patterns before it did', (path) => {
    expect(ROUTES.namesCall(path)).toBe(BEFORE.call.test(path));
    expect(ROUTES.ownerOf(path)?.errors === 'plain-json').toBe(BEFORE.plainJson.test(path));
    // The facade saw paths the server had normalised: one slash at a time.
    if (!path.includes('//')) expect(ROUTES.namesCallOf('v1', path)).toBe(BEFORE.facade.test(path));
    // The server's v1 paths, and now /v1 itself, which it left to the keep-alive of any other path.
    expect(ROUTES.nameOf(path) === 'v1').toBe(BEFORE.server.test(path) || /^\/+v1$/i.test(path));
    expect(ROUTES.isUnder('v1', path)).toBe(ROUTES.nameOf(path) === 'v1');
    expect(ROUTES.isUnder('webhooks', path)).toBe(ROUTES.nameOf(path) === 'webhooks');
  });

  it('names the owner of a prefix and every path under it, in any case, and of nothing else', () => {
    expect(ROUTES.nameOf('/v1')).toBe('v1');
    expect(ROUTES.nameOf('/V1/User/Get')).toBe('v1');
    expect(ROUTES.nameOf('//webhooks/v2')).toBe('webhooks');
    expect(ROUTES.nameOf('/rec/download/abc')).toBe('recordings');
    expect(ROUTES.nameOf('/shadow/report.json')).toBe('shadowReport');
    expect(ROUTES.nameOf('/v1x')).toBeUndefined();
    expect(ROUTES.nameOf('/')).toBeUndefined();
    expect(ROUTES.namesCallOf('signer', '/sdk/signature')).toBe(true);
    expect(ROUTES.namesCallOf('v1', '/sdk/signature')).toBe(false);
  });

  it('gives a part every prefix of its rows', () => {
    expect(ROUTES.prefixesOf('sandbox')).toEqual(['/v2', '/sandbox', '/oauth', '/rec']);
    expect(ROUTES.prefixesOf('ops')).toEqual(['/metrics', '/healthz', '/readyz', '/status']);
  });

  it('moves a path with its prefix: a table with the status page elsewhere gives /status to no one', () => {
    const moved = new RouteTable({ ...ROUTE_OWNERS, status: { ...ROUTE_OWNERS.status, prefix: '/ops/status' } });
    expect(moved.nameOf('/ops/status/data')).toBe('status');
    expect(moved.ownerOf('/ops/status')?.errors).toBe('plain-json');
    expect(moved.nameOf('/status/data')).toBeUndefined();
    const v1Elsewhere = new RouteTable({ ...ROUTE_OWNERS, v1: { ...ROUTE_OWNERS.v1, prefix: '/legacy/v1' } });
    expect(v1Elsewhere.namesCallOf('v1', '/Legacy//V1/user/get')).toBe(true);
    expect(v1Elsewhere.namesCall('/v1/user/get')).toBe(false);
  });

  it('refuses two rows of one prefix', () => {
    expect(() => new RouteTable({ a: { prefix: '/x', part: 'ops', errors: 'v1' }, b: { prefix: '/X', part: 'v1', errors: 'v1' } })).toThrow(
      /Two parts own \/x/,
    );
  });
});

describe('a path below a prefix', () => {
  it('is what follows the prefix, / for the prefix itself, and any other path as it is', () => {
    expect(pathBelow('/v2', '/v2/users/me')).toBe('/users/me');
    expect(pathBelow('/v2', '/v2')).toBe('/');
    expect(pathBelow('/v2', '/v2/')).toBe('/');
    expect(pathBelow('/v2', '/v2x/users')).toBe('/v2x/users');
    expect(pathBelow('/v2', '/V2/users')).toBe('/V2/users');
  });
});
