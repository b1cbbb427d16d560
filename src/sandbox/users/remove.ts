import type { z } from 'zod';
import { invalidField, userNotFound } from '../errors.js';
import { opaqueId } from '../ids.js';
import type { Account } from '../model/account.js';
import type { Meeting } from '../model/meeting.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';
import type { deleteUserQuery } from './schemas.js';

export interface RemoveUserOptions {
  /** `disassociate` leaves the user alive in an account of their own; `delete` erases them and frees the email. */
  action: 'disassociate' | 'delete';
  /** Who inherits what the transfer flags name; null when nothing is transferred. */
  transferTo: User | null;
  transferMeetings: boolean;
  transferWebinars: boolean;
  transferRecordings: boolean;
}

/**
 * The options of DELETE /users/{userId} from its query: the transferee must be another active user
 * of the account, and is required as soon as anything is to be transferred.
 */
export function removalOptions(
  state: SandboxState,
  account: Account,
  user: User,
  query: z.output<typeof deleteUserQuery>,
): RemoveUserOptions {
  const options = {
    action: query.action ?? 'disassociate',
    transferTo: null,
    transferMeetings: query.transfer_meeting ?? false,
    transferWebinars: query.transfer_webinar ?? false,
    transferRecordings: query.transfer_recording ?? false,
  };
  const wantsTransfer = options.transferMeetings || options.transferWebinars || options.transferRecordings;
  if (!query.transfer_email) {
    if (wantsTransfer)
      throw invalidField('transfer_email', 'Required when transfer_meeting, transfer_webinar or transfer_recording is true.');
    return options;
  }
  const transferTo = state.findUser(account, query.transfer_email);
  if (!transferTo) throw userNotFound(query.transfer_email);
  if (transferTo === user) throw invalidField('transfer_email', 'Must be a user other than the one removed.');
  if (transferTo.status !== 'active') throw invalidField('transfer_email', 'Must be an active user.');
  return { ...options, transferTo };
}

/**
 * DELETE /users/{userId}: take the user out of their account and leave no dangling reference
 * behind, so every other endpoint stays consistent: their meetings and webinars go to the
 * transferee or are deleted, and they leave every group, IM group and assistant list.
 */
export function removeUser(state: SandboxState, user: User, options: RemoveUserOptions): void {
  handOverOrDropMeetings(state, user, options);
  leaveGroups(state, user);
  leaveAssistantLists(state, user);
  if (options.action === 'delete') {
    state.removeUser(user);
  } else {
    // A disassociated user keeps their sign-in, as a basic user of a free account of their own;
    // the email stays taken and the old account no longer sees them.
    user.account_id = opaqueId();
    user.type = 1;
  }
}

/**
 * Recordings live on the instances of their meeting here, so transferring recordings keeps the
 * meetings that have any (under the transferee) even when meetings themselves are not transferred.
 */
function transferred(meeting: Meeting, options: RemoveUserOptions): boolean {
  if (!options.transferTo) return false;
  if (meeting.kind === 'meeting' ? options.transferMeetings : options.transferWebinars) return true;
  return options.transferRecordings && meeting.instances.some((instance) => instance.recording_files.length > 0);
}

function handOverOrDropMeetings(state: SandboxState, user: User, options: RemoveUserOptions): void {
  for (const meeting of [...state.meetings.values()]) {
    if (meeting.host_id !== user.id || meeting.account_id !== user.account_id) continue;
    if (transferred(meeting, options)) {
      const heir = options.transferTo!;
      meeting.host_id = heir.id;
      // A start url authenticates its host by their zak: the heir must be the one it lets in.
      meeting.start_url = meeting.start_url.replaceAll(user.tokens.zak, heir.tokens.zak);
      continue;
    }
    state.meetings.delete(meeting.id);
    for (const instance of meeting.instances) state.instancesByUuid.delete(instance.uuid);
  }
}

function leaveGroups(state: SandboxState, user: User): void {
  for (const group of [...state.groups.values(), ...state.imGroups.values()]) {
    if (group.account_id === user.account_id) group.member_ids = group.member_ids.filter((id) => id !== user.id);
  }
}

function leaveAssistantLists(state: SandboxState, user: User): void {
  user.assistant_ids = [];
  for (const other of state.users.values()) {
    if (other.assistant_ids.includes(user.id)) other.assistant_ids = other.assistant_ids.filter((id) => id !== user.id);
  }
}
