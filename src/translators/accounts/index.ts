import type { EndpointDefinition } from '../kit/define.js';
import { accountCreate } from './create.js';
import { accountBillingUpdate } from './billing.js';
import { accountDelete } from './delete.js';
import { accountPlanAdd, accountPlanGet, accountPlanSubscribe, accountPlanUpdate } from './plans.js';
import { accountGet, accountList } from './read.js';
import { accountUpdate } from './update.js';

/** The v1 sub account endpoints (/ma/account/...). */
export const accountsEndpoints: EndpointDefinition[] = [
  accountCreate,
  accountList,
  accountGet,
  accountUpdate,
  accountDelete,
  accountPlanSubscribe,
  accountPlanAdd,
  accountPlanGet,
  accountPlanUpdate,
  accountBillingUpdate,
];
