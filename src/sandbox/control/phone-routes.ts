import type { Hono } from 'hono';
import { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { conflict, invalidField, notFound, V2Code } from '../errors.js';
import { readBody } from '../validation.js';
import { utcTime } from './schemas.js';

/**
 * A telephone leg of a meeting or webinar, for GET /report/telephone: only a phone network could
 * make one, so the control API plays it.
 *
 * POST /sandbox/meetings/{id}/phone-legs  body {direction: "call-in" | "call-out", phone_number,
 *      call_in_number? (call-in only: the dial-in number rung), country_name?, start_time, end_time, total}
 *      → 201 the leg. It belongs to the instance running at start_time (409 when none was) and ends
 *      by now and by that instance's end.
 */

const phoneNumber = z.string().regex(/^\+?[\d ()-]{3,32}$/, 'Must be a phone number such as +86 8208.');

const legBody = z
  .strictObject({
    direction: z.enum(['call-in', 'call-out'], { error: 'Must be call-in or call-out.' }),
    phone_number: phoneNumber,
    call_in_number: phoneNumber.optional(),
    country_name: z.string().max(64).default(''),
    start_time: utcTime,
    end_time: utcTime,
    total: z.number().min(0),
  })
  .superRefine((leg, ctx) => {
    if (leg.end_time < leg.start_time) ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'Must not be before start_time.' });
    if (leg.direction === 'call-in' && !leg.call_in_number)
      ctx.addIssue({ code: 'custom', path: ['call_in_number'], message: 'Required for a call-in.' });
    if (leg.direction === 'call-out' && leg.call_in_number)
      ctx.addIssue({ code: 'custom', path: ['call_in_number'], message: 'A call-out rings no dial-in number.' });
  });

export function registerPhoneControlRoutes(app: Hono, { state }: SandboxContext): void {
  app.post('/meetings/:id/phone-legs', async (c) => {
    const id = c.req.param('id');
    const meeting = /^\d{1,16}$/.test(id) ? state.meetings.get(Number(id)) : undefined;
    if (!meeting) throw notFound(V2Code.meetingNotFound, `Meeting or webinar ${id} not found.`);
    const body = await readBody(c, legBody);
    const now = state.nowIso();
    if (body.end_time > now) throw invalidField('end_time', `Must not be after now (${now}).`);
    const instance = meeting.instances.find(
      (i) => i.start_time <= body.start_time && (i.end_time === null || body.start_time <= i.end_time),
    );
    if (!instance) throw conflict(V2Code.meetingNotFound, `No session of ${id} was running at ${body.start_time}.`);
    if (instance.end_time !== null && body.end_time > instance.end_time) {
      throw invalidField('end_time', `Must not be after the session's end (${instance.end_time}).`);
    }
    const { direction: _direction, call_in_number, ...rest } = body;
    const leg = { ...rest, call_in_number: call_in_number ?? '' };
    (instance.phone_legs ??= []).push(leg);
    return c.json({ uuid: instance.uuid, ...leg }, 201);
  });
}
