import { expect } from 'vitest';
import type { TestGateway } from '../support/gateway.js';

/** A meeting of `hostId` that happened at `start_time` (sandbox control API): answers its number and instance uuid. */
export async function meetingHappened(
  gw: TestGateway,
  hostId: string,
  start_time: string,
  participants: { name: string; email?: string }[] = [],
  duration_minutes = 30,
): Promise<{ id: number; uuid: string }> {
  const created = await gw.v2('POST', `/users/${hostId}/meetings`, {
    body: { topic: `Held ${start_time}`, type: 2, start_time, duration: 30 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const happened = await gw.control('POST', `/meetings/${created.body.id}/happen`, { start_time, duration_minutes, participants });
  expect(happened.status, JSON.stringify(happened.body)).toBe(201);
  return { id: created.body.id as number, uuid: happened.body.uuid as string };
}
