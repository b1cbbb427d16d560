import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { Account, BillingContact } from '../model/account.js';
import { orRequired, userEmail } from '../users/schemas.js';
import { readBody } from '../validation.js';
import { requireBillingTarget, requireManagedAccount } from './access.js';
import { requirePaidByMaster } from './payment.js';

const required = z.string(orRequired('Must be a string.')).trim().min(1, 'Must not be empty.');

/** The billing contact as POST /plans requires it: everything but `apt`. */
export const billingContactSchema = z.strictObject({
  first_name: required.max(64, 'Must be at most 64 characters.'),
  last_name: required.max(64, 'Must be at most 64 characters.'),
  email: userEmail,
  phone_number: required,
  address: required,
  apt: z.string('Must be a string.').optional(),
  city: required,
  state: required,
  zip: required,
  country: required,
});

const billingPatchSchema = billingContactSchema.partial();

const EMPTY_CONTACT: BillingContact = {
  first_name: '',
  last_name: '',
  email: '',
  phone_number: '',
  address: '',
  apt: '',
  city: '',
  state: '',
  zip: '',
  country: '',
};

export function contactFrom(input: z.output<typeof billingContactSchema>): BillingContact {
  return { ...EMPTY_CONTACT, ...input };
}

/** A free account has no contact yet: its fields render empty rather than missing, as every one is a string. */
function renderContact(account: Account): BillingContact {
  return { ...(account.billing ?? EMPTY_CONTACT) };
}

export function registerBillingRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/accounts/:accountId/billing', (c) => {
    const account = requireManagedAccount(state, c.get('account'), c.req.param('accountId'));
    return c.json(renderContact(account));
  });

  // The reference: "Only for the sub account which is a paid account and paid by master account".
  app.patch('/accounts/:accountId/billing', async (c) => {
    const account = requireBillingTarget(state, c.get('account'), c.req.param('accountId'));
    const patch = await readBody(c, billingPatchSchema, { allowEmpty: true });
    requirePaidByMaster(account, 'paid');
    account.billing = { ...renderContact(account), ...patch };
    return c.body(null, 204);
  });
}
