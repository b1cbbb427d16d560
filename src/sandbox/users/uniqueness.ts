import { digits } from '../ids.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';
import { VANITY_NAME_PATTERN } from './schemas.js';

/**
 * Emails, personal meeting room names and personal meeting ids are each unique across the whole
 * service, not just one account: they are how people find the user (sign-in, `/my/{name}`, `/j/{pmi}`).
 */

export const emailTaken = (state: SandboxState, email: string) => state.usersByEmail.has(email.toLowerCase());

export function userWithVanityName(state: SandboxState, name: string): User | undefined {
  const wanted = name.toLowerCase();
  for (const user of state.users.values()) if (user.vanity_name?.toLowerCase() === wanted) return user;
  return undefined;
}

export function userWithPmi(state: SandboxState, pmi: string): User | undefined {
  for (const user of state.users.values()) if (user.pmi === pmi) return user;
  return undefined;
}

/** A fresh personal meeting id no user holds yet. */
export function freePmi(state: SandboxState): string {
  for (;;) {
    const candidate = digits(10);
    if (!userWithPmi(state, candidate)) return candidate;
  }
}

/**
 * The personal meeting room name ssoCreate gives a non-basic user: the email's user name when it is
 * a valid name nobody has, otherwise a random one.
 */
export function ssoVanityName(state: SandboxState, email: string): string {
  const local = email.slice(0, email.indexOf('@'));
  if (VANITY_NAME_PATTERN.test(local) && !userWithVanityName(state, local)) return local;
  for (;;) {
    const candidate = `u${digits(10)}`;
    if (!userWithVanityName(state, candidate)) return candidate;
  }
}
