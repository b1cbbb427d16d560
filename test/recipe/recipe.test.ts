import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationOf, readCalls } from '../../src/compare/calls.js';
import { makeRecipe, type Recipe } from '../../src/recipe/recipe.js';
import { ALL_ENDPOINTS } from '../../src/translators/endpoints.js';
import { canonicalPath } from '../../src/translators/kit/registry.js';
import { launchBrowser, openPage } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FUTURE, uniqueEmail } from '../support/v1-answers.js';

/**
 * The way out: a record of three integrations' v1 calls (three api_keys, twenty endpoints, an error
 * among them) made by a real gateway, turned by `npm run recipe` into each integration's plan for
 * v2, and its overview page read in Chromium.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'v1gate-recipe-'));
const recordFile = join(dir, 'calls.jsonl');
const out = join(dir, 'recipe');

let gw: TestGateway;
let pairs: { api_key: string; api_secret: string }[];
let recipe: Recipe;
let browser: Browser | undefined;

type Pair = { api_key: string; api_secret: string };
const call = (pair: Pair, path: string, params: Record<string, string> = {}) => gw.v1(path, { ...params, ...pair });

/** Two sub accounts, each its own integration with its own pair (the sandbox lists their pairs). */
async function subAccountPairs(): Promise<Pair[]> {
  for (const tag of ['sub-a', 'sub-b'])
    await gw.v1('/ma/account/create', { email: uniqueEmail(tag), first_name: 'Sub', last_name: 'Owner', password: 'secret-pass-1' });
  const { accounts } = (await gw.control('GET', '/accounts')).body as { accounts: (Pair & { master_account_id?: string })[] };
  return accounts.filter((a) => a.master_account_id).slice(-2);
}

/** Calls of the main integration: users, meetings (one of them an error), groups, reports. */
async function mainIntegration(pair: Pair): Promise<void> {
  const me = (await call(pair, '/user/list')).users[0];
  const created = await call(pair, '/user/create', { email: uniqueEmail('recipe'), type: '1' });
  await call(pair, '/user/get', { id: created.id });
  await call(pair, '/user/getbyemail', { email: me.email, login_type: '100' });
  await call(pair, '/user/checkemail', { email: me.email });
  await call(pair, '/user/pending');
  const meeting = await call(pair, '/meeting/create', { host_id: me.id, topic: 'Recipe', type: '2', start_time: FUTURE, duration: '30' });
  for (let i = 0; i < 3; i++) await call(pair, '/meeting/get', { id: String(meeting.id), host_id: me.id });
  await call(pair, '/meeting/get', { id: '12345', host_id: me.id });
  await call(pair, '/meeting/update', { id: String(meeting.id), host_id: me.id, topic: 'Recipe, moved' });
  await call(pair, '/meeting/list', { host_id: me.id });
  await call(pair, '/meeting/delete', { id: String(meeting.id), host_id: me.id });
  const group = await call(pair, '/group/create', { name: `recipe ${Date.now()}` });
  await call(pair, '/group/get', { id: group.id });
  await call(pair, '/group/list');
  await call(pair, '/report/getaccountreport', { from: '2024-05-01', to: '2024-05-31' });
}

/** Smaller integrations, each over endpoints of its own among the main one's. */
async function otherIntegration(pair: Pair, extra: string[]): Promise<void> {
  const me = (await call(pair, '/user/list')).users[0];
  for (const path of extra) await call(pair, path, path.startsWith('/webinar') || path.startsWith('/recording') ? { host_id: me.id } : {});
}

beforeAll(async () => {
  gw = await startTestGateway({ V1_RECORD_FILE: recordFile });
  pairs = [gw.credentials, ...(await subAccountPairs())];
  await mainIntegration(pairs[0]!);
  await otherIntegration(pairs[1]!, ['/webinar/list', '/recording/list', '/im/group/list', '/user/pending']);
  await otherIntegration(pairs[2]!, ['/ma/account/list', '/user/list']);
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/recipe.ts', '--record', recordFile, '--out', out], {
    cwd: ROOT,
  });
  recipe = JSON.parse(readFileSync(join(out, 'recipe.json'), 'utf8')) as Recipe;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gw?.close();
});

const byPath = new Map(ALL_ENDPOINTS.flatMap((e) => [e.path, ...(e.aliases ?? [])].map((p) => [canonicalPath(p), e] as const)));

describe('npm run recipe over a record of three integrations', () => {
  it('names the scopes each new app needs: the main one writes meetings, the smaller ones only read', () => {
    const [main, webinars, accounts] = pairs.map((p) => recipe.integrations.find((i) => i.integration === integrationOf(p.api_key))!);
    expect(main!.scopes.granular).toEqual(
      expect.arrayContaining(['meeting:write:meeting:admin', 'meeting:read:meeting:admin', 'user:read:user:admin']),
    );
    expect(main!.scopes.unknown).toEqual([]);
    for (const other of [webinars!, accounts!]) expect(other.scopes.granular.filter((s) => s.includes(':write:'))).toEqual([]);
  });

  it('plans each integration apart, named by a hash of its api_key, never the key or a secret', () => {
    expect(recipe.integrations.map((i) => i.integration).sort()).toEqual(pairs.map((p) => integrationOf(p.api_key)).sort());
    const endpoints = new Set(recipe.integrations.flatMap((i) => i.endpoints.map((e) => e.path)));
    expect(endpoints.size).toBeGreaterThanOrEqual(20);
    for (const file of readdirSync(out)) {
      const text = readFileSync(join(out, file), 'utf8');
      for (const pair of pairs) {
        expect(text, file).not.toContain(pair.api_key);
        expect(text, file).not.toContain(pair.api_secret);
      }
      expect(statSync(join(out, file)).mode & 0o077, file).toBe(0);
    }
  });

  it("gives each endpoint the v2 routes its definition declares, and every recorded call's steps are among them", () => {
    for (const integration of recipe.integrations) {
      for (const endpoint of integration.endpoints) {
        const definition = byPath.get(endpoint.path)!;
        expect(
          endpoint.declared?.steps.map((s) => s.route),
          endpoint.path,
        ).toEqual(definition.v2Calls.map((r) => r.name));
        const declared = new Set([...definition.v2Calls, ...(definition.v2Undo ?? [])].map((r) => r.name));
        for (const sequence of endpoint.sequences)
          for (const step of sequence.steps) expect(declared, endpoint.path).toContain(step.replace(/^undo: /, ''));
      }
    }
  });

  it('counts what the record holds: calls per endpoint, the parameters given, the errors met', () => {
    const main = recipe.integrations.find((i) => i.integration === integrationOf(pairs[0]!.api_key))!;
    const get = main.endpoints.find((e) => e.path === '/meeting/get')!;
    expect(get.calls).toBe(4);
    expect(get.params).toEqual([
      { name: 'host_id', calls: 4 },
      { name: 'id', calls: 4 },
    ]);
    expect(get.errors).toEqual([{ code: 3001, message: expect.any(String), calls: 1, v2Statuses: [404] }]);
    // The busiest endpoint comes first.
    expect(main.endpoints[0]!.path).toBe('/meeting/get');
  });

  it('makes a worked example of a recorded call that answered: the v1 call, then the v2 calls it became', () => {
    const main = recipe.integrations.find((i) => i.integration === integrationOf(pairs[0]!.api_key))!;
    const create = main.endpoints.find((e) => e.path === '/meeting/create')!;
    expect(create.example!.v1Curl).toContain('"$V1_BASE_URL/v1/meeting/create"');
    expect(create.example!.v1Curl).toContain("--data-urlencode 'topic=Recipe'");
    expect(create.example!.v2Curl.some((c) => /-X POST "\$V2_BASE_URL\/users\/[^/]+\/meetings"/.test(c))).toBe(true);
    // The body names the v1 parameter each field comes from.
    expect(create.example!.typescript).toContain('"topic": "{{topic}}"');
  });

  it('plans each step with when it runs and where each value comes from, and says what it cannot express', () => {
    const main = recipe.integrations.find((i) => i.integration === integrationOf(pairs[0]!.api_key))!;
    const plan = (path: string) => main.endpoints.find((e) => e.path === path)!.plan!;
    const [post] = plan('/meeting/create').steps;
    expect(post).toMatchObject({ route: 'POST /users/{userId}/meetings', when: { kind: 'always' } });
    expect(post!.pathParams.userId).toMatchObject({ from: 'param', param: 'host_id' });
    expect(post!.body).toEqual(expect.arrayContaining([expect.objectContaining({ v1: 'topic', v2: 'topic' })]));
    for (const step of plan('/meeting/delete').steps.filter((s) => s.when.kind === 'always'))
      expect(step.pathParams.meetingId).toMatchObject({ from: 'param', param: 'id' });
    // The user create's two writes are parted by its declared writes: the info in POST /users, the rest after it.
    expect(plan('/user/create').cannotExpress).toEqual([]);
    expect(
      plan('/user/create')
        .steps.find((s) => s.route === 'POST /users')!
        .body!.map((f) => f.v2),
    ).toContain('user_info.email');
    // The list's page is built from v2's, its items by the list item's rows; each listed user's settings are read one by one.
    const list = plan('/user/list');
    expect(list.steps[0]).toMatchObject({
      route: 'GET /users',
      query: { status: { from: 'constant', value: 'active' } },
      pages: { items: 'users' },
    });
    expect(list.steps[1]).toMatchObject({
      route: 'GET /users/{userId}/settings',
      when: { kind: 'per-list-item', step: 0 },
      pathParams: { userId: { from: 'list-item', field: 'id' } },
    });
    expect(list.answer.find((a) => a.v1 === 'users')?.source).toMatchObject({ from: 'items', step: 0, v2: 'users' });
    expect(list.cannotExpress).toEqual([]);
  });

  it('sets the recorded volume against the plan: each category with its busiest window and its share of the limit', () => {
    for (const integration of recipe.integrations) {
      expect(integration.categories.length).toBeGreaterThan(0);
      for (const category of integration.categories) {
        expect(category.peak).toBeGreaterThan(0);
        expect(category.peak).toBeLessThanOrEqual(category.v2Calls);
        expect(category.load).toBeCloseTo(category.peak / category.limit, 2);
      }
    }
  });

  it('writes one Markdown page per integration, with every endpoint it called', () => {
    for (const integration of recipe.integrations) {
      const page = readFileSync(join(out, `${integration.integration}.md`), 'utf8');
      for (const endpoint of integration.endpoints) expect(page).toContain(`### \`/v1${endpoint.path}\``);
    }
  });

  it("shows in Chromium each integration's busiest category and the v2 routes its app will call", async () => {
    browser = await launchBrowser();
    const { page, errors } = await openPage(browser);
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
    for (const integration of recipe.integrations) {
      const section = page.locator(`section[data-integration="${integration.integration}"]`);
      const busiest = [...integration.categories].sort((a, b) => b.load - a.load || b.v2Calls - a.v2Calls)[0]!;
      expect(await section.locator('.busiest').innerText()).toContain(`${busiest.category}: ${busiest.peak}`);
      expect(await section.locator('table.endpoints tbody tr').count()).toBe(integration.endpoints.length);
      // Each category with its busiest window against the plan's limit, the busiest first.
      const categories = await section
        .locator('table.categories tbody tr')
        .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
      expect(categories.map(([category]) => category).sort()).toEqual(integration.categories.map((c) => c.category).sort());
      expect(categories[0]![0]).toBe(busiest.category);
      expect(categories[0]!.slice(2, 4)).toEqual([String(busiest.peak), String(busiest.limit)]);
      // What to change first names every endpoint the recipe leaves to hand work.
      const first = await section.locator('ol.first li').allTextContents();
      for (const endpoint of integration.endpoints.filter((e) => e.plan?.cannotExpress.length))
        expect(first.join('\n')).toContain(`/v1${endpoint.path} by hand`);
      expect(first.length).toBeGreaterThan(0);
      // The scopes named open every route the integration's endpoints may call: a route no granular
      // scope opens (a master account's) by a classic one.
      const granular = new Set(await section.locator('.scopes code').allTextContents());
      const classic = new Set(await section.locator('.classic-scopes code').allTextContents());
      expect(granular.size).toBeGreaterThan(0);
      // The key's needed scopes as the recipe names them (the gateway's own policy), every one shown.
      expect([...granular].sort()).toEqual(integration.scopes.granular);
      expect([...classic].sort()).toEqual(integration.scopes.classic);
      for (const endpoint of integration.endpoints) {
        for (const { route, scopes } of [...(endpoint.declared?.steps ?? []), ...(endpoint.declared?.undo ?? [])]) {
          const opened = scopes!.granular.length
            ? scopes!.granular.some((s) => granular.has(s))
            : scopes!.classic.some((s) => classic.has(s));
          expect(opened, route).toBe(true);
        }
      }
      const routes = await section.locator('ul.routes li code').allTextContents();
      for (const endpoint of integration.endpoints) for (const step of endpoint.declared?.steps ?? []) expect(routes).toContain(step.route);
    }
    expect(errors).toEqual([]);
  });

  it('is made the same from the record read back (readCalls) as the command made it', () => {
    const again = makeRecipe(readCalls(recordFile), ALL_ENDPOINTS, { plan: 'pro', now: new Date(recipe.generated_at) });
    expect(JSON.parse(JSON.stringify(again))).toEqual(recipe);
  });
});
