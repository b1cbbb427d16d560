import { z } from 'zod';
import { V2_NUMBERED_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/** The v2 sub account answers the /ma/account translators read (the v2 spec's answer lines). */

/** POST /accounts: 201 `id`, `owner_id`, `owner_email`, `created_at`. */
const CREATED_ACCOUNT_FIELDS = {
  id: z.string(),
  owner_id: z.string(),
  owner_email: z.string(),
  created_at: z.string(),
};
export const V2_CREATED_ACCOUNT = looseFields(CREATED_ACCOUNT_FIELDS);

/** GET /accounts/{accountId}: the created account's fields and its `options` (read by key). */
export const V2_ACCOUNT = looseFields({ ...CREATED_ACCOUNT_FIELDS, options: OBJECT_READ_BY_KEY });

/** GET /accounts: the list items are picked by field name. */
export const V2_ACCOUNT_PAGE = looseFields({ ...V2_NUMBERED_PAGE, accounts: z.array(OBJECT_READ_BY_KEY) });

/** GET /accounts/{accountId}/plans, /billing, and the 201 plan set of POST /plans: read through the plan and contact tables. */
export const V2_PLAN_SET = OBJECT_READ_BY_KEY;
export const V2_BILLING_CONTACT = OBJECT_READ_BY_KEY;
