import { describe, expect, it } from 'vitest';
import { V2RouteTemplates } from './v2-route-templates.js';

describe('V2RouteTemplates', () => {
  const templates = new V2RouteTemplates([
    'GET /users/{userId}',
    'GET /users/me',
    'DELETE /meetings/{meetingId} (undo)',
    'GET /users/{userId}/meetings?type=live',
  ]);

  it('prefers the template with more literal segments, and matches the method', () => {
    expect(templates.templateOf('GET', '/users/me')).toBe('/users/me');
    expect(templates.templateOf('GET', '/users/someone')).toBe('/users/{userId}');
    expect(templates.templateOf('DELETE', '/users/someone')).toBeUndefined();
  });

  it('reads a declared call without its query or note, and a sent path without its query', () => {
    expect(templates.templateOf('DELETE', '/meetings/123')).toBe('/meetings/{meetingId}');
    expect(templates.templateOf('GET', '/users/u1/meetings?type=live&page_size=30')).toBe('/users/{userId}/meetings');
    expect(templates.templateOf('GET', '/users/u1/meetings/extra')).toBeUndefined();
  });
});
