import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recipe } from '../../src/recipe/recipe.js';
import { clientRecordFile, recipeCommand, startClientFixtures, verifyRecord, type ClientFixtures } from '../clients/support.js';
import { FUTURE } from '../support/v1-answers.js';

/**
 * `npm run recipe -- --verify` can fail: a record of meeting calls gives a recipe that passes, and
 * the same recipe with one body field sent to the wrong v2 field and one answer field read through
 * the wrong codec fails, naming each endpoint and what differed, with exit code 1.
 */

const recordFile = clientRecordFile();
const dir = mkdtempSync(join(tmpdir(), 'v1gate-verify-'));
let fixtures: ClientFixtures;
let recipe: Recipe;

beforeAll(async () => {
  fixtures = await startClientFixtures({ V1_RECORD_FILE: recordFile });
  const { gw, ownerId } = fixtures;
  const meeting = await gw.v1('/meeting/create', {
    host_id: ownerId,
    topic: 'Verified',
    type: '2',
    start_time: FUTURE,
    option_jbh: 'true',
  });
  await gw.v1('/meeting/get', { id: String(meeting.id), host_id: ownerId });
  await gw.v1('/meeting/update', { id: String(meeting.id), host_id: ownerId, topic: 'Verified, moved' });
  await gw.v1('/meeting/get', { id: String(meeting.id), host_id: ownerId });
  await gw.v1('/meeting/delete', { id: String(meeting.id), host_id: ownerId });
  await recipeCommand(['--record', recordFile, '--out', dir]);
  recipe = JSON.parse(readFileSync(join(dir, 'recipe.json'), 'utf8')) as Recipe;
}, 120_000);
afterAll(async () => {
  await fixtures?.gw.close();
});

const verdictOf = (lines: string[], path: string) => lines.find((line) => line.includes(` /v1${path} (`)) ?? '';

describe('npm run recipe -- --verify', () => {
  it('passes the recipe made from the record: every endpoint done from the recipe alone agrees with v1gate', async () => {
    const { code, lines } = await verifyRecord(recordFile, join(dir, 'recipe.json'));
    expect(code, lines.join('\n')).toBe(0);
    for (const path of ['/meeting/create', '/meeting/get', '/meeting/update', '/meeting/delete'])
      expect(verdictOf(lines, path), lines.join('\n')).toMatch(/^pass\s/);
    expect(lines.at(-1)).toMatch(/^4 endpoints: 4 pass, 0 fail/);
  }, 120_000);

  it('fails a recipe that sends a field to the wrong place or reads one back the wrong way', async () => {
    const wrong = structuredClone(recipe);
    const endpoints = wrong.integrations[0]!.endpoints;
    const create = endpoints.find((e) => e.path === '/meeting/create')!.plan!;
    const topic = create.steps.find((s) => s.body)!.body!.find((f) => f.v1 === 'topic')!;
    topic.v2 = 'agenda';
    const get = endpoints.find((e) => e.path === '/meeting/get')!.plan!;
    const jbh = get.answer.find((a) => a.v1 === 'option_jbh')!;
    expect(jbh.source).toMatchObject({ from: 'v2', codec: { kind: 'same' } });
    jbh.source = { from: 'v2', v2: 'settings.join_before_host', codec: { kind: 'negated' } };
    const file = join(dir, 'wrong.json');
    writeFileSync(file, JSON.stringify(wrong));
    const { code, lines } = await verifyRecord(recordFile, file);
    expect(code, lines.join('\n')).toBe(1);
    const at = (path: string) => lines.slice(lines.findIndex((line) => line.includes(` /v1${path} (`))).join('\n');
    expect(verdictOf(lines, '/meeting/create')).toMatch(/^fail\s/);
    expect(at('/meeting/create')).toMatch(/answer field topic: v1gate answered "Verified"|differs at topic/);
    expect(verdictOf(lines, '/meeting/get')).toMatch(/^fail\s/);
    expect(at('/meeting/get')).toMatch(/answer field option_jbh: v1gate answered true, the recipe built false/);
  }, 120_000);
});
