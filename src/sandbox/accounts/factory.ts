import { isoSeconds } from '../clock.js';
import { apiCredential, opaqueId } from '../ids.js';
import type { Account } from '../model/account.js';
import { defaultAccountOptions, defaultAccountSettings } from './defaults.js';

export interface NewAccountInput {
  ownerId: string;
  accountName: string;
  masterAccountId: string | null;
  createdAt: string;
  apiKey?: string;
  apiSecret?: string;
  id?: string;
}

/** Build an account record with fresh API credentials and the v2 defaults. */
export function newAccount(input: NewAccountInput): Account {
  const start = new Date(input.createdAt);
  const end = new Date(start);
  end.setUTCFullYear(end.getUTCFullYear() + 1);
  return {
    id: input.id ?? opaqueId(),
    apiKey: input.apiKey ?? apiCredential(16),
    apiSecret: input.apiSecret ?? apiCredential(27),
    masterAccountId: input.masterAccountId,
    disassociated: false,
    ownerId: input.ownerId,
    account_name: input.accountName,
    account_type: input.masterAccountId ? 'Sub Account' : 'Master Account',
    seats: 0,
    subscription_start_time: input.createdAt,
    subscription_end_time: isoSeconds(end),
    created_at: input.createdAt,
    options: defaultAccountOptions(),
    settings: defaultAccountSettings(),
    billing: null,
    plans: null,
  };
}
