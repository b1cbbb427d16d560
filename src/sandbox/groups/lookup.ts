import { conflict, notFound, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';
import type { Group, ImGroup } from '../model/group.js';

/** What groups and IM groups have in common: an account, a name, members. */
export type AnyGroup = Group | ImGroup;

/** A group of `account` from `groups`, or 404 4130 (groups of other accounts do not exist for the caller). */
export function requireGroupIn<G extends AnyGroup>(groups: ReadonlyMap<string, G>, account: Account, id: string): G {
  const group = groups.get(id);
  if (!group || group.account_id !== account.id) throw notFound(V2Code.groupNotExist, `Group does not exist: ${id}.`);
  return group;
}

/**
 * Names are unique within an account, compared without regard to case (the service treats
 * "Sales" and "sales" as the same group name). `except` is the group being renamed.
 */
export function assertNameFree(groups: ReadonlyMap<string, AnyGroup>, account: Account, name: string, except?: AnyGroup): void {
  const wanted = name.toLowerCase();
  for (const group of groups.values()) {
    if (group !== except && group.account_id === account.id && group.name.toLowerCase() === wanted) {
      throw conflict(V2Code.groupNameExists, `Group name ${name} is already in use.`);
    }
  }
}
