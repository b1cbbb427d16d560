import { SandboxError, V2Code } from '../errors.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';
import type { UserUpdate } from './schemas.js';
import { userWithPmi, userWithVanityName } from './uniqueness.js';

const taken = (field: string, message: string) => new SandboxError(409, V2Code.invalidParameter, message, [{ field, message }]);

/**
 * PATCH /users/{userId}: check that the new pmi and room name are free, then apply every field at
 * once (a rejected update changes nothing).
 */
export function updateUser(state: SandboxState, user: User, update: UserUpdate): void {
  if (update.pmi !== undefined) {
    const holder = userWithPmi(state, update.pmi);
    if (holder && holder !== user) throw taken('pmi', `PMI ${update.pmi} is already in use.`);
  }
  if (update.vanity_name) {
    const holder = userWithVanityName(state, update.vanity_name);
    if (holder && holder !== user) throw taken('vanity_name', `Personal meeting room name ${update.vanity_name} is already in use.`);
  }
  const { vanity_name, ...fields } = update;
  Object.assign(user, fields);
  if (vanity_name !== undefined) user.vanity_name = vanity_name === '' ? null : vanity_name;
}
