import { V1Code } from '../../v1/errors.js';
import { V1Error } from '../../v1/errors.js';
import type { V2Session } from '../kit/v2-answers/sessions.js';

/** Registration is on when the host asked for approval (v2 approval_type 0 automatic, 1 manual; 2 is none). */
export function requireRegistration(session: V2Session): void {
  const approvalType = session.settings?.['approval_type'];
  if (approvalType === 0 || approvalType === 1) return;
  // The words of v2's own refusal of a registration, so every registration endpoint says the same.
  throw new V1Error(V1Code.invalidParameter, `Registration has not been enabled for this webinar: ${session.id}.`);
}
