import { v2path } from '../../shared/v2-path.js';
import { v1 } from '../../v1/param-types.js';

/** Every /ma/account call but create and list names its sub account. */
export const accountIdParam = { account_id: v1.string() };

/** `/accounts/{accountId}` plus `rest`, the id encoded as one path segment. */
export const accountPath = (accountId: string, rest = '') => `${v2path`/accounts/${accountId}`}${rest}`;
