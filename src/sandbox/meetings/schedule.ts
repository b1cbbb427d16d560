import { invalidField } from '../errors.js';
import type { Meeting, Occurrence, Recurrence } from '../model/meeting.js';
import type { KindSpec, SessionBody } from './kinds.js';
import { computeOccurrences } from './recurrence.js';
import { isUtcDateTime, isoUtc, startInstant } from './time.js';

/**
 * When a meeting or webinar happens: its type, start, timezone, duration, recurrence and
 * occurrences, resolved from a create or update body over the current values. The rules that
 * tie fields together live here (a local start needs a timezone, a fixed-time series needs a
 * recurrence, ...); the schemas check each field alone.
 */
export interface Schedule {
  type: number;
  start_time: string | null;
  timezone: string;
  duration: number;
  recurrence: Recurrence | null;
  occurrences: Occurrence[];
}

/** Minutes, when a body gives none (the service's scheduling default). */
export const DEFAULT_DURATION = 60;

export interface ScheduleContext {
  spec: KindSpec;
  /** The session being updated; null on create. */
  current: Meeting | null;
  /** Timezone of a new session that names none: the host's, else UTC. */
  hostTimeZone: string;
  nowMs: number;
}

export function planSchedule(body: SessionBody, { spec, current, hostTimeZone, nowMs }: ScheduleContext): Schedule {
  const type = body.type ?? current?.type ?? spec.defaultType;
  const timezone = body.timezone ?? current?.timezone ?? (hostTimeZone || 'UTC');
  const duration = body.duration ?? current?.duration ?? DEFAULT_DURATION;

  if (type === spec.noFixedTimeType) {
    return { type, start_time: null, timezone, duration, recurrence: null, occurrences: [] };
  }
  if (type === spec.instantType) {
    // An instant meeting starts when it is created; a start_time in the body means nothing to it.
    const start_time = current?.type === type && current.start_time ? current.start_time : isoUtc(nowMs);
    return { type, start_time, timezone, duration, recurrence: null, occurrences: [] };
  }

  if (body.start_time !== undefined && !isUtcDateTime(body.start_time) && body.timezone === undefined && !current) {
    throw invalidField('timezone', 'Required when start_time is local time (has no Z).');
  }
  const startMs =
    body.start_time !== undefined ? startInstant(body.start_time, timezone) : current?.start_time ? Date.parse(current.start_time) : nowMs;
  const start_time = isoUtc(startMs);
  if (type !== spec.fixedTimeRecurringType) {
    return { type, start_time, timezone, duration, recurrence: null, occurrences: [] };
  }

  // An update's recurrence replaces the whole object, as the service does (no field-wise merge).
  const recurrence = toRecurrence(body.recurrence) ?? current?.recurrence ?? null;
  if (!recurrence) throw invalidField('recurrence', `Required for type ${type} (recurring with a fixed time).`);
  const computed = computeOccurrences(recurrence, startMs, timezone, duration);
  if (computed.length === 0) throw invalidField('recurrence.end_date_time', 'The recurrence ends before start_time.');
  // The series starts with its first occurrence (a weekly series begun on a day it skips starts later).
  return {
    type,
    start_time: computed[0]!.start_time,
    timezone,
    duration,
    recurrence,
    occurrences: keepDeleted(computed, current?.occurrences ?? []),
  };
}

/** An occurrence deleted before a reschedule stays deleted if the new series still has it. */
function keepDeleted(next: Occurrence[], previous: Occurrence[]): Occurrence[] {
  const deleted = new Set(previous.filter((o) => o.status === 'deleted').map((o) => o.occurrence_id));
  return next.map((o) => (deleted.has(o.occurrence_id) ? { ...o, status: 'deleted' } : o));
}

function toRecurrence(input: SessionBody['recurrence']): Recurrence | null {
  if (!input) return null;
  const recurrence: Recurrence = { type: input.type, repeat_interval: input.repeat_interval ?? 1 };
  if (input.weekly_days !== undefined) recurrence.weekly_days = input.weekly_days;
  if (input.monthly_day !== undefined) recurrence.monthly_day = input.monthly_day;
  if (input.monthly_week !== undefined) recurrence.monthly_week = input.monthly_week;
  if (input.monthly_week_day !== undefined) recurrence.monthly_week_day = input.monthly_week_day;
  if (input.end_times !== undefined) recurrence.end_times = input.end_times;
  if (input.end_date_time !== undefined) recurrence.end_date_time = input.end_date_time;
  return recurrence;
}
