import type { SandboxContext } from '../context.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';

/** How the v2 answers show a user: the fields every user answer shares (the reference's `User`). */
function baseFields(user: User) {
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    type: user.type,
    // A number in today's answers (the documents' `integer`); held as its digits.
    pmi: Number(user.pmi),
    timezone: user.timezone,
    dept: user.dept,
    created_at: user.created_at,
    // A user who never signed in has no login time; the service prints it empty, as v1 did.
    last_login_time: user.last_login_time ?? '',
    last_client_version: user.last_client_version,
  };
}

/** An item of GET /users. */
export function renderUserListItem(state: SandboxState, user: User) {
  return { ...baseFields(user), ...state.groupIdsOf(user) };
}

export const personalMeetingUrl = (ctx: SandboxContext, user: User) => `${ctx.publicUrl}/j/${user.pmi}`;

export const vanityUrl = (ctx: SandboxContext, user: User) => (user.vanity_name ? `${ctx.publicUrl}/my/${user.vanity_name}` : '');

/** GET /users/{userId}. */
export function renderUser(ctx: SandboxContext, user: User) {
  return {
    ...baseFields(user),
    account_id: user.account_id,
    status: user.status,
    verified: user.verified,
    language: user.language,
    use_pmi: user.use_pmi,
    vanity_url: vanityUrl(ctx, user),
    personal_meeting_url: personalMeetingUrl(ctx, user),
    pic_url: user.pic_url,
    cms_user_id: user.cms_user_id,
    host_key: user.host_key,
    ...ctx.state.groupIdsOf(user),
  };
}

/** `{id, email}`: how assistant and scheduler lists name a user. */
export const renderUserRef = (user: User) => ({ id: user.id, email: user.email });
