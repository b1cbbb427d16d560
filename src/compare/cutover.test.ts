import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cutover, type CutoverOptions } from './cutover.js';
import { fileCutoverStore } from './cutover-store.js';

const READS = new Set(['/user/get', '/user/list']);
const options = (overrides: Partial<CutoverOptions> = {}): CutoverOptions => ({
  primary: 'https://v1.example.com',
  promoteAfter: 3,
  serveWrites: new Set(['/meeting/create']),
  isRead: (path) => READS.has(path),
  serves: (path) => READS.has(path) || path === '/meeting/create' || path === '/meeting/update',
  now: () => new Date('2030-01-01T00:00:00Z'),
  ...overrides,
});

describe('the cut-over of one endpoint', () => {
  it('promotes a read after N matches in a row; a difference ends the streak, or demotes a promoted read', async () => {
    const cutover = new Cutover(options());
    cutover.matched('/user/get');
    cutover.matched('/user/get');
    cutover.differed('/user/get', 'email');
    expect(cutover.route('/user/get')).toBe('forward');
    for (let i = 0; i < 3; i++) cutover.matched('/user/get');
    expect(cutover.stateOf('/user/get')).toBe('promoted');
    expect(cutover.route('/user/get')).toBe('serve');
    cutover.differed('/user/get', 'type');
    expect(cutover.endpoints()).toContainEqual({
      endpoint: '/user/get',
      state: 'shadowing',
      streak: 0,
      since: '2030-01-01T00:00:00.000Z',
      lastDifference: { at: '2030-01-01T00:00:00.000Z', field: 'type' },
    });
    await cutover.close();
  });

  it('never promotes a write by its results, serves the named ones, forwards what it does not serve, and promotes nothing with N = 0', async () => {
    const cutover = new Cutover(options());
    for (let i = 0; i < 10; i++) cutover.matched('/meeting/update');
    expect(cutover.route('/meeting/update')).toBe('forward');
    expect(cutover.route('/meeting/create')).toBe('serve');
    expect(cutover.route('/no/such')).toBe('forward');
    const never = new Cutover(options({ promoteAfter: 0 }));
    for (let i = 0; i < 10; i++) never.matched('/user/get');
    expect(never.stateOf('/user/get')).toBe('shadowing');
    await Promise.all([cutover.close(), never.close()]);
  });
});

describe('the states kept in a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'v1gate-cutover-unit-'));

  it('are written as they change and taken up by the next process, for the same primary only', async () => {
    const file = join(dir, 'states.json');
    const first = new Cutover(options({ store: fileCutoverStore(file) }));
    for (let i = 0; i < 3; i++) first.matched('/user/get');
    first.matched('/user/list');
    await first.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      primary: 'https://v1.example.com',
      endpoints: { '/user/get': { state: 'promoted', streak: 3 }, '/user/list': { state: 'shadowing', streak: 1 } },
    });
    const second = new Cutover(options({ store: fileCutoverStore(file) }));
    await second.restore();
    expect(second.stateOf('/user/get')).toBe('promoted');
    const elsewhere = new Cutover(options({ primary: 'https://other.example.com', store: fileCutoverStore(file) }));
    await elsewhere.restore();
    expect(elsewhere.stateOf('/user/get')).toBe('shadowing');
    await Promise.all([second.close(), elsewhere.close()]);
  });

  it('start every endpoint shadowing when the file is unreadable', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"primary": "https://v1.example.com", "endpoints": {"/user/get": {"state": "promot');
    const cutover = new Cutover(options({ store: fileCutoverStore(file) }));
    await cutover.restore();
    expect(cutover.stateOf('/user/get')).toBe('shadowing');
    await cutover.close();
  });
});
