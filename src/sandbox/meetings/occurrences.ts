import { invalidField } from '../errors.js';
import type { Meeting, Occurrence } from '../model/meeting.js';

/**
 * Occurrence ids named in queries (`occurrence_id`, `occurrence_ids`) must be occurrences the
 * session still has; anything else is a 400 naming the query field.
 */
export function findOccurrence(meeting: Meeting, id: string, field: string): Occurrence {
  const occurrence = meeting.occurrences.find((o) => o.occurrence_id === id.trim());
  if (!occurrence || occurrence.status !== 'available') {
    throw invalidField(field, `Occurrence not found or deleted: ${id}.`);
  }
  return occurrence;
}

/** A comma-separated `occurrence_ids`, each checked; none given is none (the whole series). */
export function findOccurrences(meeting: Meeting, csv: string | undefined, field: string): Occurrence[] {
  if (csv === undefined || csv.trim() === '') return [];
  const ids = [
    ...new Set(
      csv
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  return ids.map((id) => findOccurrence(meeting, id, field));
}
