import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { renderScopes } from '../../src/translators/kit/scopes-doc.js';

describe('docs/scopes.md', () => {
  const onDisk = readFileSync(new URL('../../docs/scopes.md', import.meta.url), 'utf8');

  it('is up to date with the routes the endpoints declare and today’s documents (run `npm run docs`)', () => {
    expect(onDisk).toBe(renderScopes(ALL_ENDPOINTS));
  });

  it('names the scopes the gateway asks for: meeting/create needs meeting:write:meeting:admin, meeting/get does without the host list', () => {
    const section = (path: string) => onDisk.split(`### \`/v1${path}\``)[1]!.split('\n### ')[0]!;
    expect(section('/meeting/create')).toContain('Give its app: `meeting:write:meeting:admin`. Classic: `meeting:write:admin`.');
    expect(section('/meeting/get')).toContain('Give its app: `meeting:read:meeting:admin`, `user:read:user:admin`.');
    expect(section('/meeting/get')).toContain('With `meeting:read:list_meetings:admin` too');
    expect(section('/user/checkzpk')).toContain('no scope needed');
  });
});
