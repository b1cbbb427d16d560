import { toV1 } from '../../v1/field-map.js';
import type { V1Answer } from '../kit/define.js';
import type { SessionAnswers } from '../../../mappings/session-answers.js';
import { answer, type AnswerShape } from '../../v1/answer.js';
import type { SessionKind } from './kinds.js';
import { v1Status } from './status.js';
import type { V2Session } from '../kit/v2-answers/sessions.js';

/**
 * The one v1 renderer of meetings and webinars: the requested answer of the kind's shapes
 * (mappings/session-answers.ts), each field from the first source that has it: what v1 computed
 * itself, the kind's option table (read through toV1), the v2 field of the same name, and last what
 * v1 answered in its absence. Each field's JSON type is its shape's (`wire`).
 */
export type OutputShape = keyof SessionAnswers;

export function renderSession(kind: SessionKind, shape: OutputShape, session: V2Session, live: boolean): V1Answer {
  const answerShape = kind.answers[shape];
  return answer(answerShape, computedFields(answerShape, session, live), toV1(kind.table, session), session);
}

/**
 * The fields v1gate computes that the shape answers, each as `computedField` gives it: an object
 * the answer reads like its other sources, where a function of the field was called for each of a
 * meeting's 24 fields to answer five. Only the fields the shape lists are computed, as the
 * function was only asked for those.
 */
function computedFields(shape: AnswerShape, session: V2Session, live: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of computedIn(shape)) out[field] = computedField(field, session, live);
  return out;
}

const COMPUTED = ['real_id', 'option_start_type', 'status', 'registration_url', 'occurrences'] as const;
const computedOfShape = new WeakMap<AnswerShape, readonly string[]>();

/** The computed fields a shape lists, in its order (looked up once per shape). */
function computedIn(shape: AnswerShape): readonly string[] {
  let fields = computedOfShape.get(shape);
  if (!fields) computedOfShape.set(shape, (fields = shape.fields.filter((field) => (COMPUTED as readonly string[]).includes(field))));
  return fields;
}

/** The fields v1gate computes itself rather than reading from v2 (undefined for the others). */
function computedField(field: string, session: V2Session, live: boolean): unknown {
  switch (field) {
    case 'real_id':
      // v1's own meeting number; v2 has one number per meeting, so both are it (docs/decisions.md).
      return String(session.id);
    case 'option_start_type':
      // Deprecated in v1, no v2 home: v1's default is the only value a v2 session can have.
      return 'video';
    case 'status':
      return v1Status(live);
    case 'registration_url':
      return registrationUrl(session);
    case 'occurrences':
      return (session.occurrences ?? []).map((o) => ({
        occurrence_id: String(o.occurrence_id),
        start_time: o.start_time,
        duration: o.duration,
        status: o.status,
      }));
    default:
      return undefined;
  }
}

/**
 * v2 has no registration url: a session that takes registrations (approval_type 0 or 1) gets the
 * service's registration page for its number, on the host of its join url; one without, `""`
 * (as the v1 example answers for a registrationless webinar).
 */
function registrationUrl(session: V2Session): string {
  const approvalType = session.settings?.['approval_type'];
  if (approvalType === undefined || approvalType === 2) return '';
  return `${new URL(session.join_url).origin}/webinar/register/${session.id}`;
}
