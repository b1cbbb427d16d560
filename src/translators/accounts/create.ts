import {
  ACCOUNT_CREATE_DROPPED_ROWS,
  ACCOUNT_OPTION_ROWS,
  ACCOUNT_OWNER_ROWS,
  ACCOUNT_SETTING_ROWS,
} from '../../../mappings/account-options.js';
import { ACCOUNT_ANSWER } from '../../../mappings/account-answers.js';
import { answer } from '../../v1/answer.js';
import { toV1Error } from '../kit/failures.js';
import { V1Error } from '../../v1/errors.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape } from '../../v1/field-map.js';
import { declareWrite, writeBody } from '../kit/write-bodies.js';
import { Rollback } from '../kit/rollback.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { V2 } from '../../v2-contract/v2-routes.js';

/**
 * Which rows go to which write, each with v1's defaults: the owner and the options in POST /accounts,
 * the settings after it. The translator builds both bodies from these, and the way-out recipe reads them.
 */
const WRITES = {
  account: declareWrite({ route: V2.accounts.create, tables: [ACCOUNT_OWNER_ROWS, ACCOUNT_OPTION_ROWS], v1Defaults: true }),
  settings: declareWrite({ route: V2.accounts.updateSettings, tables: [ACCOUNT_SETTING_ROWS], v1Defaults: true }),
};

/**
 * /ma/account/create → POST /accounts (owner and `options`), then PATCH /accounts/{id}/settings
 * for the v1 options that live in v2 settings, with v1's defaults. If the settings cannot be
 * written, the account is taken back with DELETE /accounts/{id}, which in v2 only disassociates
 * it: the error then says that the account lives on, detached, and its owner email stays taken.
 */
export const accountCreate = defineEndpoint({
  path: '/ma/account/create',
  params: v1Params({
    ...inputShape(ACCOUNT_OPTION_ROWS),
    ...inputShape(ACCOUNT_SETTING_ROWS),
    ...inputShape(ACCOUNT_CREATE_DROPPED_ROWS),
    email: v1.email(),
    first_name: v1.string(),
    last_name: v1.string(),
    password: v1.string(),
  }),
  v2Calls: [V2.accounts.create, V2.accounts.updateSettings],
  v2Undo: [V2.accounts.delete],
  v2Writes: [WRITES.account, WRITES.settings],
  tables: [ACCOUNT_OWNER_ROWS, ACCOUNT_OPTION_ROWS, ACCOUNT_SETTING_ROWS, ACCOUNT_CREATE_DROPPED_ROWS],
  async handle(params, ctx) {
    const { email } = params;
    const settings = writeBody(WRITES.settings, params);
    // Outside the rollback: a refusal here (email taken, bad password) has changed nothing.
    const account = await ctx.v2.post(V2.accounts.create.at(), writeBody(WRITES.account, params));
    const rollback = new Rollback(ctx);
    let disassociated = false;
    rollback.onFailure(`sub account ${account.id} (owner ${email})`, async (v2) => {
      await v2.delete(V2.accounts.delete.at(account.id));
      disassociated = true;
    });
    try {
      await rollback.run(() => ctx.v2.patch(V2.accounts.updateSettings.at(account.id), settings));
    } catch (error) {
      if (!disassociated) throw error;
      const failure = toV1Error(error, accountCreate.v1FieldOf);
      throw new V1Error(
        failure.code,
        `${failure.message} The sub account ${account.id} had been created; v2 cannot delete an account, so it was disassociated ` +
          `from the master account instead: it lives on as a standalone account and its owner email ${email} stays in use.`,
        {},
        error,
      );
    }
    return answer(ACCOUNT_ANSWER, account);
  },
});
