import { V2Error } from '../../upstream/errors.js';

/**
 * Run a v2 call whose field errors name nested v2 paths (`plan_large_meeting.1.type`,
 * `contact.zip`) and rename each to the v1 field that carried it, so the v1 error names a field
 * the client sent. Other failures pass through unchanged.
 */
export async function namingV1Fields<T>(call: Promise<T>, v1FieldOf: (v2Field: string) => string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof V2Error) || error.fieldErrors.length === 0) throw error;
    const renamed = error.fieldErrors.map((e) => ({ ...e, field: v1FieldOf(e.field) }));
    throw new V2Error(error.status, error.code, error.message, renamed, error.retryAfterMs);
  }
}
