import { ACCOUNT_OPTION_ROWS, ACCOUNT_SETTING_ROWS, ACCOUNT_UPDATE_DROPPED_ROWS } from '../../../mappings/account-options.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape, toV2 } from '../../v1/field-map.js';
import { Rollback } from '../kit/rollback.js';
import { v1Params } from '../../v1/param-types.js';
import { accountIdParam } from './account-path.js';
import { V2 } from '../../v2-contract/v2-routes.js';

/**
 * /ma/account/update → PATCH /accounts/{id}/options and/or PATCH /accounts/{id}/settings, with
 * only the fields given (no v1 defaults on update). When both are written, the options are read
 * first, so that a failed settings write can put the changed options back.
 */
export const accountUpdate = defineEndpoint({
  path: '/ma/account/update',
  params: v1Params({
    ...inputShape(ACCOUNT_OPTION_ROWS),
    ...inputShape(ACCOUNT_SETTING_ROWS),
    ...inputShape(ACCOUNT_UPDATE_DROPPED_ROWS),
    ...accountIdParam,
  }),
  v2Calls: [V2.accounts.get, V2.accounts.updateOptions, V2.accounts.updateSettings],
  // A failed settings write puts the options back.
  v2Undo: [V2.accounts.updateOptions],
  tables: [ACCOUNT_OPTION_ROWS, ACCOUNT_SETTING_ROWS, ACCOUNT_UPDATE_DROPPED_ROWS],
  // The option rows are written under `options`, but PATCH /accounts/{id}/options is sent them flat.
  v2Naming: { moved: [{ table: ACCOUNT_OPTION_ROWS, strip: 'options.' }] },
  async handle(params, ctx) {
    const { account_id } = params;
    const options = toV2(ACCOUNT_OPTION_ROWS, params).options ?? {};
    const settings = toV2(ACCOUNT_SETTING_ROWS, params);
    const hasOptions = Object.keys(options).length > 0;
    const hasSettings = Object.keys(settings).length > 0;

    if (hasOptions && hasSettings) {
      const before = (await ctx.v2.get(V2.accounts.get.at(account_id))).options;
      await ctx.v2.patch(V2.accounts.updateOptions.at(account_id), options);
      const rollback = new Rollback(ctx);
      const restore = Object.fromEntries(Object.keys(options).map((key) => [key, before[key]]));
      rollback.onFailure(`options of sub account ${account_id} (${Object.keys(options).join(', ')})`, (v2) =>
        v2.patch(V2.accounts.updateOptions.at(account_id), restore),
      );
      await rollback.run(() => ctx.v2.patch(V2.accounts.updateSettings.at(account_id), settings));
    } else if (hasOptions) {
      await ctx.v2.patch(V2.accounts.updateOptions.at(account_id), options);
    } else if (hasSettings) {
      await ctx.v2.patch(V2.accounts.updateSettings.at(account_id), settings);
    } else {
      // Nothing to change: still answer an unknown account as v1 did.
      await ctx.v2.get(V2.accounts.get.at(account_id));
    }
    return { id: account_id, updated_at: ctx.nowIso() };
  },
});
