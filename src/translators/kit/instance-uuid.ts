/**
 * A session instance's uuid in a v2 path (the reports, metrics and recordings of one meeting or
 * webinar instance). A uuid may hold `/`: the service wants it encoded twice when it starts with `/`
 * or holds `//`, and a route's `at` encodes once.
 */

/** A uuid as a v2 path value before the route encodes it: encoded once more when it starts with `/` or holds `//`. */
export const uuidSegment = (uuid: string) => (uuid.startsWith('/') || uuid.includes('//') ? encodeURIComponent(uuid) : uuid);

/**
 * The `{meetingId}`/`{webinarId}` segment of the v2 report endpoints: the session number (v2 then
 * reports its latest ended instance, v1's default when `uuid` is omitted) or the instance uuid.
 */
export function reportRef(sessionId: string, uuid: string | undefined): string {
  return uuid === undefined ? sessionId : uuidSegment(uuid);
}
