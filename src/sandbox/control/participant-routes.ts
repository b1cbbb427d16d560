import type { Hono } from 'hono';
import { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { notFound, V2Code } from '../errors.js';
import type { Participant } from '../model/meeting.js';
import { readBody } from '../validation.js';
import { utcTime } from './schemas.js';

/**
 * What only a participant's own client could tell the service: the device and network it joined
 * from, and its quality-of-service samples. The dashboard endpoints (GET /metrics/.../participants
 * and .../qos) report them.
 *
 * POST /sandbox/meetings/{id}/participants/{participantId}/client
 *      body {device, ip_address?, location? ("City (CC)"), network_type?, version?} → 200 participant
 * POST /sandbox/meetings/{id}/participants/{participantId}/qos
 *      body {date_time?, audio_input?, audio_output?, video_input?, video_output?, as_input?, as_output?, cpu_usage?} → 201 sample
 *      A stream is {bitrate, latency, jitter, avg_loss, max_loss, resolution?, frame_rate?} (printed values: "29 kbps").
 */

const text = z.string().max(128, 'Must be at most 128 characters.');

const clientBody = z.strictObject({
  device: text.min(1, 'Must not be empty.'),
  ip_address: text.default(''),
  location: text.regex(/^(.+ \([A-Z]{2}\))?$/, 'Must be "City (CC)", such as "Nanjing (CN)".').default(''),
  network_type: text.default(''),
  version: text.default(''),
});

const streamBody = z
  .strictObject({
    bitrate: text.default(''),
    latency: text.default(''),
    jitter: text.default(''),
    avg_loss: text.default(''),
    max_loss: text.default(''),
    resolution: text.optional(),
    frame_rate: text.optional(),
  })
  .default({ bitrate: '', latency: '', jitter: '', avg_loss: '', max_loss: '' });

const qosBody = z.strictObject({
  date_time: utcTime.optional(),
  audio_input: streamBody,
  audio_output: streamBody,
  video_input: streamBody,
  video_output: streamBody,
  as_input: streamBody,
  as_output: streamBody,
  cpu_usage: z
    .strictObject({
      zoom_min_cpu_usage: text.default(''),
      zoom_avg_cpu_usage: text.default(''),
      zoom_max_cpu_usage: text.default(''),
      system_max_cpu_usage: text.default(''),
    })
    .default({ zoom_min_cpu_usage: '', zoom_avg_cpu_usage: '', zoom_max_cpu_usage: '', system_max_cpu_usage: '' }),
});

export function registerParticipantControlRoutes(app: Hono, { state }: SandboxContext): void {
  /** A participant of any instance of meeting {id}, by its participant id. */
  const participantOf = (id: string, participantId: string): Participant => {
    const meeting = /^\d{1,16}$/.test(id) ? state.meetings.get(Number(id)) : undefined;
    if (!meeting) throw notFound(V2Code.meetingNotFound, `Meeting or webinar ${id} not found.`);
    for (const instance of meeting.instances) {
      const found = instance.participants.find((p) => p.id === participantId);
      if (found) return found;
    }
    throw notFound(V2Code.meetingNotFound, `Participant ${participantId} not found in ${id}.`);
  };

  app.post('/meetings/:id/participants/:participantId/client', async (c) => {
    const participant = participantOf(c.req.param('id'), c.req.param('participantId'));
    participant.client = await readBody(c, clientBody);
    return c.json({ ...participant });
  });

  app.post('/meetings/:id/participants/:participantId/qos', async (c) => {
    const participant = participantOf(c.req.param('id'), c.req.param('participantId'));
    const body = await readBody(c, qosBody, { allowEmpty: true });
    const sample = { ...body, date_time: body.date_time ?? state.nowIso() };
    (participant.qos ??= []).push(sample);
    return c.json(sample, 201);
  });
}
