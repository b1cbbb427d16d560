import { expect } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { FUTURE } from '../support/v1-answers.js';

/**
 * Helpers shared by the registration and webinar report tests (test/gateway/registration*.test.ts,
 * webinar-reports*.test.ts); the v1 answer checks are in ../support/v1-answers.ts.
 */

export interface Session {
  id: number;
  host_id: string;
  topic: string;
  start_time?: string;
}

async function created(gw: TestGateway, path: string, body: Record<string, unknown>): Promise<Session> {
  const res = await gw.v2('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A webinar through v2; `approval` 0 automatic, 1 manual, 2 no registration. */
export function createWebinar(gw: TestGateway, opts: { approval?: 0 | 1 | 2; host?: string; body?: Record<string, unknown> } = {}) {
  return created(gw, `/users/${opts.host ?? 'me'}/webinars`, {
    topic: 'Launch',
    start_time: FUTURE,
    duration: 60,
    ...opts.body,
    settings: { approval_type: opts.approval ?? 0, ...(opts.body?.['settings'] as object) },
  });
}

export function createMeeting(gw: TestGateway, approval: 0 | 1 | 2 = 0) {
  return created(gw, '/users/me/meetings', {
    topic: 'Town hall',
    type: 2,
    start_time: FUTURE,
    duration: 30,
    settings: { approval_type: approval },
  });
}

/** A registration straight through v2 (the other direction from v1's register). */
export async function registerV2(gw: TestGateway, webinarId: number, who: Record<string, unknown>): Promise<string> {
  const res = await gw.v2('POST', `/webinars/${webinarId}/registrants`, { body: { first_name: 'Guest', last_name: 'User', ...who } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.registrant_id;
}

/** The v2 registrants of one status. */
export async function v2Registrants(
  gw: TestGateway,
  webinarId: number,
  status: 'pending' | 'approved' | 'denied',
  query: Record<string, string> = {},
) {
  const res = await gw.v2('GET', `/webinars/${webinarId}/registrants`, { query: { status, page_size: 300, ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.registrants as Record<string, any>[];
}

/** The sandbox's sessions, to assert a refused call changed nothing. */
export const snapshot = (gw: TestGateway) => JSON.stringify([...gw.sandbox.state.meetings.values()]);
