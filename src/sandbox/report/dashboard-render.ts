import type { Participant, QosSample, QosStream } from '../model/meeting.js';

/**
 * The dashboard's per-participant answers (GET /metrics/{meetings|webinars}/{id}/participants and
 * .../qos). What the client reported comes from the control API; a participant whose client never
 * reported anything answers empty strings, as the service does for a client it could not read.
 */

const NO_CLIENT = { device: '', ip_address: '', location: '', network_type: '', version: '' };

/** An item of GET /metrics/meetings/{meetingId}/participants. */
export function renderDashboardParticipant(p: Participant) {
  const client = p.client ?? NO_CLIENT;
  return {
    id: p.id,
    user_id: p.user_id,
    user_name: p.name,
    device: client.device,
    ip_address: client.ip_address,
    location: client.location,
    network_type: client.network_type,
    join_time: p.join_time,
    // A participant still in has not left: the service leaves the field out.
    ...(p.leave_time === null ? {} : { leave_time: p.leave_time }),
    // Sandbox participants cannot share or record (nothing in the sandbox models either).
    share_application: false,
    share_desktop: false,
    share_whiteboard: false,
    recording: false,
    version: client.version,
  };
}

const EMPTY_STREAM: QosStream = { bitrate: '', latency: '', jitter: '', avg_loss: '', max_loss: '' };
const EMPTY_VIDEO: QosStream = { ...EMPTY_STREAM, resolution: '', frame_rate: '' };

/** A stream in v2's field order; video-like streams always carry resolution and frame rate. */
const stream = (s: QosStream, video: boolean): QosStream => ({
  bitrate: s.bitrate,
  latency: s.latency,
  jitter: s.jitter,
  avg_loss: s.avg_loss,
  max_loss: s.max_loss,
  ...(video ? { resolution: s.resolution ?? '', frame_rate: s.frame_rate ?? '' } : {}),
});

function renderSample(sample: QosSample | undefined) {
  if (!sample) {
    return {
      audio_input: EMPTY_STREAM,
      audio_output: EMPTY_STREAM,
      video_input: EMPTY_VIDEO,
      video_output: EMPTY_VIDEO,
      as_input: EMPTY_VIDEO,
      as_output: EMPTY_VIDEO,
    };
  }
  return {
    date_time: sample.date_time,
    audio_input: stream(sample.audio_input, false),
    audio_output: stream(sample.audio_output, false),
    video_input: stream(sample.video_input, true),
    video_output: stream(sample.video_output, true),
    as_input: stream(sample.as_input, true),
    as_output: stream(sample.as_output, true),
    cpu_usage: { ...sample.cpu_usage },
  };
}

/**
 * GET /metrics/meetings/{meetingId}/participants/{participantId}/qos, and an item of the
 * `/participants/qos` list. The reference types `user_qos` as one object, not a series: the
 * answer carries the participant's latest sample.
 */
export function renderParticipantQos(p: Participant) {
  const client = p.client ?? NO_CLIENT;
  return {
    user_id: p.user_id,
    user_name: p.name,
    device: client.device,
    ip_address: client.ip_address,
    location: client.location,
    join_time: p.join_time,
    ...(p.leave_time === null ? {} : { leave_time: p.leave_time }),
    version: client.version,
    user_qos: renderSample(p.qos?.at(-1)),
  };
}
