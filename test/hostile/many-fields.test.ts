import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { memoryOf, unlimited } from './hostile-support.js';

/**
 * Forms of 400,000 fields (3.9 MB, under the body limit, no credentials), three at a time, to a
 * gateway in its own process, while another client keeps calling it. Reading stops at the field
 * cap (V1_MAX_FIELDS, 1,000), so each form costs the work of 1,001 fields: every one is refused
 * with the v1 error, and the other client is answered all along — every probe answered within a
 * generous deadline, and probes answered while the forms were being refused.
 */
const CAP_ERROR = { error: { code: 300, message: 'Too many parameters: a request may carry at most 1000 fields.' } };
/** Past this a probe counts as not answered: far longer than any answer takes, far shorter than the seconds one form took to read in full. */
const PROBE_DEADLINE_MS = 5_000;

let gateway: GatewayProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess(unlimited());
}, 60_000);
afterAll(() => gateway?.kill());

const manyFields = (count: number) => Array.from({ length: count }, (_, i) => `f${i}=1`).join('&');

async function post(path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }) {
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(60_000) });
  return await response.json();
}

describe('forms of 400,000 fields', () => {
  it('are refused at the field cap while another client is answered all along', async () => {
    const form = manyFields(400_000);
    expect(form.length).toBeGreaterThan(3_800_000);
    expect(form.length).toBeLessThan(4 * 1024 * 1024);
    const before = memoryOf(gateway.pid);
    let flooding = true;
    const probes = { answered: 0, answeredDuringFlood: 0, missed: 0 };
    const probing = (async () => {
      while (flooding) {
        try {
          const response = await fetch(`${gateway.url}/healthz`, { signal: AbortSignal.timeout(PROBE_DEADLINE_MS) });
          await response.text();
          probes.answered++;
          if (flooding) probes.answeredDuringFlood++;
        } catch {
          probes.missed++;
        }
      }
    })();
    // Three senders, five forms each.
    const answers = (
      await Promise.all(
        Array.from({ length: 3 }, async () => {
          const mine: unknown[] = [];
          for (let i = 0; i < 5; i++) mine.push(await post('/v1/user/get', form));
          return mine;
        }),
      )
    ).flat();
    flooding = false;
    await probing;
    expect(answers).toEqual(Array(15).fill(CAP_ERROR));
    expect(probes.missed).toBe(0);
    expect(probes.answeredDuringFlood).toBeGreaterThanOrEqual(3);
    const after = memoryOf(gateway.pid);
    expect(after.peakMiB - before.peakMiB).toBeLessThan(100);
  }, 180_000);

  it('a multipart body of 50,000 parts is refused before it is parsed', async () => {
    const boundary = 'xYzBoundary';
    const part = (i: number) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n1\r\n`;
    const body = `${Array.from({ length: 50_000 }, (_, i) => part(i)).join('')}--${boundary}--\r\n`;
    expect(await post('/v1/user/get', body, { 'content-type': `multipart/form-data; boundary=${boundary}` })).toEqual(CAP_ERROR);
  });

  it('a query string of 1,500 fields is refused, and one of 1,000 is read', async () => {
    expect(await post(`/v1/user/get?${manyFields(1_500)}`, '')).toEqual(CAP_ERROR);
    // 1,000 fields in all, the api_key among them: past the cap nothing is refused, the call goes on to its credentials.
    expect(await post(`/v1/user/get?${manyFields(999)}&api_key=k`, '')).toEqual({
      error: { code: 101, message: 'Api key and secret are required.' },
    });
  });
});
