import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTodayOperations, renderTodayContract, TODAY_TABLE_FILE } from '../../scripts/today-contract-render.js';
import { TODAY_V2 } from './v2-today.js';

describe("today's v2 contract table (src/v2-contract/v2-today.ts)", () => {
  it('is what `npm run today-contract` writes from spec/reference/today: regenerate it after the documents change', async () => {
    expect(readFileSync(TODAY_TABLE_FILE, 'utf8')).toBe(await renderTodayContract());
  });

  it('holds every operation of the five documents, with the labels, scopes and codes their text carries', () => {
    // The README's counts: 184 + 71 + 59 + 107 + 121 operations.
    expect(Object.keys(TODAY_V2)).toHaveLength(542);
    expect(readTodayOperations()).toHaveLength(542);
    expect(TODAY_V2['GET /meetings/{meetingId}']).toEqual({
      document: 'meetings',
      category: 'light',
      granular: ['meeting:read:meeting', 'meeting:read:meeting:admin'],
      classic: ['meeting:read', 'meeting:read:admin'],
      errors: { '400': [3000, 3161], '404': [3001], '429': [] },
    });
    // A label written in another case, and a scope written with a space before it.
    expect(TODAY_V2['GET /metrics/chat']?.category).toBe('resource-intensive');
    expect(TODAY_V2['GET /divisions']?.classic).toEqual(['division:read:admin']);
    // The few operations whose description gives no label.
    expect(
      Object.entries(TODAY_V2)
        .filter(([, op]) => op.category === null)
        .map(([name]) => name),
    ).toEqual([
      'GET /meetings/{meetingId}/recordings/analytics_details',
      'GET /meetings/{meetingId}/recordings/analytics_summary',
      'GET /users/{userId}/webinar_templates',
      'POST /chat/users/{userId}/files',
      'POST /chat/users/{userId}/messages/files',
    ]);
  });
});
