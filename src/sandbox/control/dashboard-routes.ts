import type { Hono } from 'hono';
import { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { invalidField, notFound, userNotFound, V2Code } from '../errors.js';
import { opaqueId } from '../ids.js';
import { IM_COUNTERS, type ImCounter, type ZoomRoom } from '../model/dashboard.js';
import type { Account } from '../model/account.js';
import { queryDate } from '../report/dates.js';
import { readBody } from '../validation.js';

/**
 * What only real rooms, room connectors and chat clients produce, for the account dashboards
 * (GET /metrics/zoomrooms[/{id}], /metrics/crc, /metrics/im):
 *
 * POST /sandbox/accounts/{id}/zoom-rooms   body {room_name, email?, calender_name?, account_type?, status?,
 *      device_ip?, camera?, microphone?, speaker?} → 201 room
 * POST /sandbox/zoom-rooms/{roomId}/meetings  body {meeting_id} → 200 room: that meeting (of the
 *      room's account) is held in the room; its live and past sessions become the room's.
 * POST /sandbox/accounts/{id}/crc-usage    body {date, hour (0-23), max_usage, total_usage} → 201: one hour
 *      of CRC port usage (a second report of the same hour replaces the first).
 * POST /sandbox/accounts/{id}/im-activity  body {user (id or email), date, counts: {total_send?, ...}} → 201:
 *      one user's chat counts of one day, added to what that day already had.
 */

const text = z.string().max(128, 'Must be at most 128 characters.');
const count = z.number().int().min(0);

const roomBody = z.strictObject({
  room_name: text.min(1, 'Must not be empty.'),
  email: z.email('Invalid email address.').default(''),
  calender_name: text.default(''),
  account_type: text.default('Work Email'),
  status: z.enum(['Available', 'Offline', 'Under Construction']).default('Available'),
  device_ip: text.default(''),
  camera: text.default(''),
  microphone: text.default(''),
  speaker: text.default(''),
});

const roomMeetingBody = z.strictObject({ meeting_id: z.number().int().positive() });

const crcBody = z.strictObject({ date: queryDate, hour: z.number().int().min(0).max(23), max_usage: count, total_usage: count });

const imBody = z.strictObject({
  user: z.string().min(1),
  date: queryDate,
  counts: z.strictObject(
    Object.fromEntries(IM_COUNTERS.map((k) => [k, count.optional()])) as Record<ImCounter, z.ZodOptional<typeof count>>,
  ),
});

export function registerDashboardControlRoutes(app: Hono, { state }: SandboxContext): void {
  const accountOf = (id: string): Account => {
    const account = state.accounts.get(id);
    if (!account) throw notFound(V2Code.accountNotFound, `Account ${id} not found.`);
    return account;
  };

  app.post('/accounts/:id/zoom-rooms', async (c) => {
    const account = accountOf(c.req.param('id'));
    const body = await readBody(c, roomBody);
    const room: ZoomRoom = { id: opaqueId(), account_id: account.id, ...body, meeting_ids: [] };
    state.zoomRooms.set(room.id, room);
    return c.json(room, 201);
  });

  app.post('/zoom-rooms/:roomId/meetings', async (c) => {
    const room = state.zoomRooms.get(c.req.param('roomId'));
    if (!room) throw notFound(V2Code.invalidParameter, `Zoom Room ${c.req.param('roomId')} not found.`);
    const { meeting_id } = await readBody(c, roomMeetingBody);
    const meeting = state.meetings.get(meeting_id);
    if (!meeting || meeting.account_id !== room.account_id)
      throw invalidField('meeting_id', `No meeting ${meeting_id} in the room's account.`);
    if (!room.meeting_ids.includes(meeting_id)) room.meeting_ids.push(meeting_id);
    return c.json(room);
  });

  app.post('/accounts/:id/crc-usage', async (c) => {
    const account = accountOf(c.req.param('id'));
    const body = await readBody(c, crcBody);
    const hour = String(body.hour).padStart(2, '0');
    const entry = { account_id: account.id, date: body.date, hour, max_usage: body.max_usage, total_usage: body.total_usage };
    const at = state.crcUsage.findIndex((u) => u.account_id === account.id && u.date === body.date && u.hour === hour);
    if (at >= 0) state.crcUsage[at] = entry;
    else state.crcUsage.push(entry);
    return c.json(entry, 201);
  });

  app.post('/accounts/:id/im-activity', async (c) => {
    const account = accountOf(c.req.param('id'));
    const body = await readBody(c, imBody);
    const user = state.findUser(account, body.user);
    if (!user) throw userNotFound(body.user);
    let day = state.imActivity.find((d) => d.user_id === user.id && d.date === body.date);
    if (!day) {
      day = { user_id: user.id, date: body.date, counts: Object.fromEntries(IM_COUNTERS.map((k) => [k, 0])) as Record<ImCounter, number> };
      state.imActivity.push(day);
    }
    for (const k of IM_COUNTERS) day.counts[k] += body.counts[k] ?? 0;
    return c.json(day, 201);
  });
}
