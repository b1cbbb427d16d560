import { v1 } from '../../v1/param-types.js';

/** Every /ma/account call but create and list names its sub account. */
export const accountIdParam = { account_id: v1.id() };
