import { toV1 } from '../../v1/field-map.js';
import type { V1Answer } from '../kit/define.js';
import type { SessionAnswers } from '../../../mappings/session-answers.js';
import { answer, type AnswerShape } from '../../v1/answer.js';
import { compiledFrom, literal, madeByConstructor } from '../../v1/compile.js';
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
 * function was only asked for those. Made by the shape's maker (below), which answers what
 * `computedFieldsByWalk` answers.
 */
export function computedFields(shape: AnswerShape, session: V2Session, live: boolean): Record<string, unknown> {
  return makerOf(shape)(session, live);
}

/** The computed fields of `shape` by walking the fields it lists: what a shape's maker must answer, key for key and in order. */
export function computedFieldsByWalk(shape: AnswerShape, session: V2Session, live: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of computedIn(shape)) out[field] = computedField(field, session, live);
  return out;
}

/** The fields v1gate computes itself rather than reading from v2, each with how. */
const COMPUTED: Readonly<Record<string, (session: V2Session, live: boolean) => unknown>> = {
  // v1's own meeting number; v2 has one number per meeting, so both are it (docs/decisions.md).
  real_id: (session) => String(session.id),
  // Deprecated in v1, no v2 home: v1's default is the only value a v2 session can have.
  option_start_type: () => 'video',
  status: (_, live) => v1Status(live),
  registration_url: (session) => registrationUrl(session),
  occurrences: (session) =>
    (session.occurrences ?? []).map((o) => ({
      occurrence_id: String(o.occurrence_id),
      start_time: o.start_time,
      duration: o.duration,
      status: o.status,
    })),
};

/** A computed field's value (undefined for a field v1gate does not compute). */
function computedField(field: string, session: V2Session, live: boolean): unknown {
  return Object.hasOwn(COMPUTED, field) ? COMPUTED[field]!(session, live) : undefined;
}

/** The computed fields a shape lists, in its order. */
function computedIn(shape: AnswerShape): readonly string[] {
  return shape.fields.filter((field) => Object.hasOwn(COMPUTED, field));
}

type Maker = (session: V2Session, live: boolean) => Record<string, unknown>;
const makers = new WeakMap<AnswerShape, Maker>();

/**
 * Each shape's maker, made on its first use and kept while the shape lives (shapes are module
 * constants of mappings/): one statement per computed field, the field's name written in
 * (src/v1/compile.ts), its value from the field's own function, the object made by a constructor.
 * Where the walk looked each field up in a list, chose its case by comparing names and stored it
 * by a name in a variable, each store now sees one field. Where code cannot be made from text,
 * the walk.
 */
function makerOf(shape: AnswerShape): Maker {
  let maker = makers.get(shape);
  if (!maker) makers.set(shape, (maker = compiledMaker(shape)));
  return maker;
}

function compiledMaker(shape: AnswerShape): Maker {
  const fields = computedIn(shape);
  const computers = fields.map((field) => COMPUTED[field]);
  const statements = fields.map((field, i) => `this[${literal(field)}] = computers[${i}](session, live);`);
  const body = madeByConstructor('session, live', statements.join(' '));
  const name = `computed/${fields.slice(0, 3).join('-') || 'none'}`;
  return compiledFrom<Maker>(name, { computers }, body, 'translators') ?? ((session, live) => computedFieldsByWalk(shape, session, live));
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
