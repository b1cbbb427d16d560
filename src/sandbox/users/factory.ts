import { apiCredential, digits, opaqueId } from '../ids.js';
import type { CreateAction, User, UserStatus, UserType } from '../model/user.js';
import { defaultUserSettings } from './defaults.js';
import { zpkExpiry } from './tokens.js';

export interface NewUserInput {
  accountId: string;
  email: string;
  type: UserType;
  firstName?: string;
  lastName?: string;
  password?: string | null;
  createdBy: CreateAction;
  status: UserStatus;
  createdAt: string;
  /** The personal meeting id; random when absent (callers that can see the state pass a free one). */
  pmi?: string;
  /** The personal meeting room name (ssoCreate gives non-basic users one). */
  vanityName?: string | null;
  /** Rendered into urls (`https://sandbox.v1gate.local/...`); the sandbox's public host name. */
  host: string;
}

/** Build a new user record with the service's defaults and fresh ids, pmi and tokens. */
export function newUser(input: NewUserInput): User {
  const id = opaqueId();
  return {
    id,
    account_id: input.accountId,
    email: input.email,
    first_name: input.firstName ?? '',
    last_name: input.lastName ?? '',
    type: input.type,
    status: input.status,
    pmi: input.pmi ?? digits(10),
    timezone: '',
    dept: '',
    language: 'en-US',
    created_at: input.createdAt,
    last_login_time: null,
    last_client_version: '',
    vanity_name: input.vanityName ?? null,
    pic_url: '',
    verified: input.status === 'pending' ? 0 : 1,
    cms_user_id: '',
    host_key: digits(6),
    use_pmi: false,
    password: input.password ?? null,
    created_by: input.createdBy,
    settings: defaultUserSettings(),
    assistant_ids: [],
    tokens: {
      token: apiCredential(48),
      zak: apiCredential(48),
      zpk: apiCredential(48),
      zpk_expires_at: zpkExpiry(new Date(input.createdAt)),
      sso_token: input.createdBy === 'ssoCreate' ? apiCredential(32) : null,
    },
  };
}
