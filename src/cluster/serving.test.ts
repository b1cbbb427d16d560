import { describe, expect, it } from 'vitest';
import { routeOf } from './serving.js';

describe('routeOf', () => {
  it('names a request by its method and path: no query, no token-long segment, no endless path', () => {
    expect(routeOf('POST', '/v1/user/get?api_secret=s3cret')).toBe('POST /v1/user/get');
    expect(routeOf('GET', `/downloads/${'A'.repeat(120)}?x=1`)).toBe('GET /downloads/{token}');
    expect(routeOf('GET', `/rec/download/${'b_-'.repeat(20)}/file`)).toBe('GET /rec/download/{token}/file');
    expect(routeOf('GET', `/${'a/'.repeat(300)}`)).toMatch(/^GET \/(a\/){99}a…$/);
    expect(routeOf(undefined, undefined)).toBe('? ');
  });
});
