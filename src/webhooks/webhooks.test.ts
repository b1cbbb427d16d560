import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { v1StatusFor } from './events.js';
import { FileJournal, type DeliveryJob } from './journal.js';
import { encodeNotification } from './notification.js';
import { parseSubscriptions, SubscriptionsError } from './subscriptions.js';

const job = (id: string): DeliveryJob => ({ id, url: 'http://r.example/hook', body: 'a=1', attempts: 0, state: 'pending', createdAt: 1 });

describe('v1 notification form', () => {
  it('is exactly the four fields, or type and content', () => {
    const n = { id: '123', uuid: 'u/+=', status: 'ENDED' as const, host_id: 'h' };
    expect(encodeNotification(n, 'status')).toBe('id=123&uuid=u%2F%2B%3D&status=ENDED&host_id=h');
    const tc = new URLSearchParams(encodeNotification(n, 'type-content'));
    expect([...tc.keys()]).toEqual(['type', 'content']);
    expect(JSON.parse(tc.get('content')!)).toEqual({ id: '123', uuid: 'u/+=', host_id: 'h' });
  });

  it('maps meeting and webinar events, and nothing else', () => {
    expect(v1StatusFor('webinar.participant_jbh_waiting')).toBe('JOIN');
    expect(v1StatusFor('recording.completed')).toBe('RECORDING_MEETING_COMPLETED');
    expect(v1StatusFor('toString')).toBeUndefined();
    expect(v1StatusFor('meeting.deleted')).toBeUndefined();
  });
});

describe('subscriptions file', () => {
  it('accepts a valid file with defaults', () => {
    expect(parseSubscriptions([{ api_key: 'k', url: 'https://crm.example/hook?secret=x' }], false)).toEqual([
      { api_key: 'k', url: 'https://crm.example/hook?secret=x', format: 'status' },
    ]);
  });

  it.each([
    [[{ url: 'https://a.example/' }], 'api_key'],
    [[{ api_key: 'k', url: 'ftp://a.example/' }], 'http(s) URL'],
    [[{ api_key: 'k', url: 'https://a.example/', username: 'u' }], 'username and password go together'],
    [[{ api_key: 'k', url: 'https://a.example/', format: 'xml' }], 'format'],
    [[{ api_key: 'k', url: 'https://a.example/', extra: 1 }], 'extra'],
    [[{ api_key: 'k', url: 'http://a.example:8080/' }], 'ports 80 and 443'],
    [{}, 'expected array'],
  ])('refuses %j naming the problem', (json, message) => {
    expect(() => parseSubscriptions(json, false)).toThrow(SubscriptionsError);
    expect(() => parseSubscriptions(json, false)).toThrow(message);
  });

  it('allows other ports when told', () => {
    expect(parseSubscriptions([{ api_key: 'k', url: 'http://127.0.0.1:8080/' }], true)).toHaveLength(1);
  });
});

describe('file journal', () => {
  it('survives a torn last line and compacts to the live jobs (attempts kept) and the delivered ids', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'v1gate-journal-')), 'j');
    const first = new FileJournal(file);
    first.add(job('a'));
    first.add(job('b'));
    first.add(job('c'));
    first.attempted('a', 1, 'HTTP 500');
    first.done('b');
    first.deadLetter('c', 'HTTP 302');
    first.close();
    appendFileSync(file, '{"t":"done","id":"a"'); // a crash mid-write

    const second = new FileJournal(file);
    expect(second.pending().map((j) => [j.id, j.attempts, j.lastError])).toEqual([['a', 1, 'HTTP 500']]);
    expect(second.dead().map((j) => j.id)).toEqual(['c']);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(second.add(job('b'))).toBe(false);
    expect(second.revive('c')).toBe(true);
    expect(second.revive('c')).toBe(false);
    expect(second.get('c')).toMatchObject({ state: 'pending', attempts: 0 });
    second.close();
  });

  it('remembers delivered ids across reopening, at most the newest N, and only for the time given', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'v1gate-journal-')), 'j');
    const first = new FileJournal(file, { maxDelivered: 3 });
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) {
      first.add(job(id));
      first.done(id);
    }
    first.close();
    const second = new FileJournal(file, { maxDelivered: 3 });
    // The compacted file holds the three newest; the two oldest were forgotten.
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(['d3', 'd4', 'd5'].map((id) => second.add(job(id)))).toEqual([false, false, false]);
    expect(second.add(job('d1'))).toBe(true);
    second.close();

    // Delivered a day and a minute ago, remembered for a day: known no more.
    const old = join(mkdtempSync(join(tmpdir(), 'v1gate-journal-')), 'j');
    appendFileSync(old, `${JSON.stringify({ t: 'done', id: 'stale', at: Date.now() - 86_460_000 })}\n`);
    appendFileSync(old, `${JSON.stringify({ t: 'done', id: 'fresh', at: Date.now() - 60_000 })}\n`);
    const third = new FileJournal(old, { rememberDeliveredMs: 86_400_000 });
    expect(third.add(job('fresh'))).toBe(false);
    expect(third.add(job('stale'))).toBe(true);
    third.close();
  });
});
