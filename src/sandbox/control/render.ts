import type { Instance, Meeting } from '../model/meeting.js';

/** The control API's view of an instance: everything the post-meeting endpoints will report about it. */
export function renderInstance(meeting: Meeting, instance: Instance) {
  return {
    id: meeting.id,
    kind: meeting.kind,
    uuid: instance.uuid,
    start_time: instance.start_time,
    end_time: instance.end_time,
    participants: instance.participants.map((p) => ({ ...p })),
    recording_files: instance.recording_files.map((f) => ({ ...f })),
    polls: instance.polls,
    questions: instance.questions,
  };
}
