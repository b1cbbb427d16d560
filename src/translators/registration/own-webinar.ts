import { V1Code } from '../../../mappings/errors.js';
import { V1Error } from '../../v1-facade/errors.js';
import type { TranslatorContext } from '../define.js';
import { requireOwnSession } from '../scheduling/host-check.js';
import { WEBINAR } from '../scheduling/kinds.js';
import type { V2Session } from '../scheduling/v2-session.js';

/**
 * The host check of the webinar endpoints that carry host_id (the scheduling one, reused): unknown
 * host 1001, unknown webinar 3001, another host's webinar 3003 — never a silent answer about
 * someone else's webinar.
 */

/** Check the host before a write: the write must not start until the check passed. */
export const requireOwnWebinar = (ctx: TranslatorContext, id: string, hostId: string) => requireOwnSession(ctx, WEBINAR, id, hostId);

/**
 * A read of the webinar's data, run alongside the host check (one round trip instead of two).
 * The check decides: if it fails, its error is the answer, whatever the read found.
 */
export async function readOwnWebinar<T>(ctx: TranslatorContext, id: string, hostId: string, read: () => Promise<T>): Promise<[V2Session, T]> {
  const [session, result] = await Promise.allSettled([requireOwnWebinar(ctx, id, hostId), read()]);
  if (session.status === 'rejected') throw session.reason;
  if (result.status === 'rejected') throw result.reason;
  return [session.value, result.value];
}

/** Registration is on when the host asked for approval (v2 approval_type 0 automatic, 1 manual; 2 is none). */
export function requireRegistration(session: V2Session): void {
  const approvalType = session.settings?.['approval_type'];
  if (approvalType === 0 || approvalType === 1) return;
  // The words of v2's own refusal of a registration, so every registration endpoint says the same.
  throw new V1Error(V1Code.invalidParameter, `Registration has not been enabled for this webinar: ${session.id}.`);
}
