import { validationFailed, type V2FieldError } from '../errors.js';
import type { Instance, Meeting } from '../model/meeting.js';
import { endLiveInstance, joinParticipant, recordPollAnswer, recordQuestion, startInstance } from '../report/lifecycle.js';
import { plusMinutes } from '../report/time.js';
import type { SandboxState } from '../state.js';
import type { HappenBody } from './schemas.js';

/** How long a `happen` lasts when neither the body nor the meeting's schedule says. */
const DEFAULT_MINUTES = 30;

/**
 * Make a whole meeting or webinar happen in the past, ending by now at the latest: it starts
 * (`start_time`, or `duration_minutes` ago), everyone joins and leaves at their minutes, poll
 * answers and Q&A are recorded, and it ends with its cloud recording. Every rule is checked
 * before the first write, so a rejected body changes nothing.
 */
export function happen(state: SandboxState, meeting: Meeting, body: HappenBody): Instance {
  const minutes = body.duration_minutes ?? (meeting.duration > 0 ? meeting.duration : DEFAULT_MINUTES);
  const now = state.nowIso();
  const start = body.start_time ?? plusMinutes(now, -minutes);
  const end = plusMinutes(start, minutes);
  const problems = timingProblems(body, minutes, end, now);
  if (meeting.kind === 'meeting' && body.questions.length > 0) {
    problems.push({ field: 'questions', message: 'Q&A is a webinar feature: meetings have none.' });
  }
  if (problems.length > 0) throw validationFailed(problems);

  const instance = startInstance(state, meeting, start);
  for (const p of body.participants) {
    joinParticipant(state, meeting, instance, {
      name: p.name,
      email: p.email,
      joinTime: plusMinutes(start, p.joined_after_minutes ?? 0),
      leaveTime: p.left_after_minutes === undefined ? undefined : plusMinutes(start, p.left_after_minutes),
    });
  }
  for (const answer of body.polls) recordPollAnswer(instance, answer);
  for (const entry of body.questions) recordQuestion(instance, entry);
  endLiveInstance(state, meeting, { endTime: end, recording: body.recording });
  return instance;
}

function timingProblems(body: HappenBody, minutes: number, end: string, now: string): V2FieldError[] {
  const problems: V2FieldError[] = [];
  if (end > now) {
    problems.push({
      field: 'start_time',
      message: `The meeting must have ended by now, but start_time plus ${minutes} minutes is ${end}.`,
    });
  }
  body.participants.forEach((p, i) => {
    if ((p.joined_after_minutes ?? 0) >= minutes) {
      problems.push({
        field: `participants.${i}.joined_after_minutes`,
        message: `Must be before the end, ${minutes} minutes after the start.`,
      });
    }
    if ((p.left_after_minutes ?? 0) > minutes) {
      problems.push({
        field: `participants.${i}.left_after_minutes`,
        message: `Must not be after the end, ${minutes} minutes after the start.`,
      });
    }
  });
  return problems;
}
