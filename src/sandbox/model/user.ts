/**
 * Users and their settings. Field names are the v2 ones.
 * Owned by the users area (src/sandbox/users/); other areas read users through state lookups.
 */

/** Today's user types: 1 basic, 2 licensed, 4 unassigned without Meetings Basic, 99 none (3, corp, is gone). */
export type UserType = 1 | 2 | 4 | 99;
export type UserStatus = 'active' | 'inactive' | 'pending';
export type CreateAction = 'create' | 'autoCreate' | 'custCreate' | 'ssoCreate';

/** Nested settings groups (`schedule_meeting`, `in_meeting`, `recording`, ...), as GET /users/{id}/settings renders them. */
export type UserSettings = Record<string, Record<string, unknown>>;

export interface User {
  id: string;
  account_id: string;
  email: string;
  first_name: string;
  last_name: string;
  type: UserType;
  status: UserStatus;
  pmi: string;
  timezone: string;
  dept: string;
  language: string;
  created_at: string;
  last_login_time: string | null;
  last_client_version: string;
  vanity_name: string | null;
  pic_url: string;
  verified: 0 | 1;
  cms_user_id: string;
  host_key: string;
  use_pmi: boolean;
  /** Set only for autoCreate and by PUT /users/{id}/password; never rendered. */
  password: string | null;
  created_by: CreateAction;
  settings: UserSettings;
  /** Ids of this user's assistants (users who may schedule for this user). */
  assistant_ids: string[];
  /** Tokens for GET /users/{id}/token; `sso_token` is cleared by DELETE /users/{id}/token. */
  /** `onbehalf`: made when first asked for (GET /users/{userId}/token?type=onbehalf). */
  tokens: { token: string; zak: string; zpk: string; zpk_expires_at: string; sso_token: string | null; onbehalf?: string };
}
