import { H323_DEVICE_ROWS } from '../../../mappings/h323.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { inputShape, toV1, toV2, toV2WithDefaults } from '../../v1/field-map.js';
import { pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { v1PageOfTokens } from '../kit/token-walk.js';

/**
 * v1's H.323/SIP devices of the account, over v2's /h323/devices: list and create answer the
 * devices as v1 did; update and delete answer the id and the time of the change (v2 answers 204).
 */

/** /h323/device/list → GET /h323/devices, v1's page reached by the token chain (kit/token-walk.ts). */
export const h323DeviceList = defineEndpoint({
  path: '/h323/device/list',
  params: v1Params({ ...v1PagingParams }),
  v2Calls: [V2.h323Devices.list],
  tables: [H323_DEVICE_ROWS],
  async handle(params, ctx) {
    const paging = pagingOf(params);
    const list = { target: V2.h323Devices.list.at() };
    const page = await v1PageOfTokens(ctx, { ...list, itemsOf: (p) => p.devices }, paging);
    return { ...v1PageFields(pageOf(paging, page.total_records)), devices: page.items.map((device) => toV1(H323_DEVICE_ROWS, device)) };
  },
});

/** /h323/device/create → POST /h323/devices, v1's defaults filled in (v2 requires all four fields). */
export const h323DeviceCreate = defineEndpoint({
  path: '/h323/device/create',
  params: v1Params({ ...inputShape(H323_DEVICE_ROWS), name: v1.string({ min: 1, max: 64 }), ip: v1.string({ min: 1 }) }),
  v2Calls: [V2.h323Devices.create],
  tables: [H323_DEVICE_ROWS],
  async handle(params, ctx) {
    const created = await ctx.v2.post(V2.h323Devices.create.at(), toV2WithDefaults(H323_DEVICE_ROWS, params));
    return toV1(H323_DEVICE_ROWS, created);
  },
});

/** /h323/device/update → PATCH /h323/devices/{id} with the fields given. */
export const h323DeviceUpdate = defineEndpoint({
  path: '/h323/device/update',
  params: v1Params({ ...inputShape(H323_DEVICE_ROWS), id: v1.id() }),
  v2Calls: [V2.h323Devices.update],
  tables: [H323_DEVICE_ROWS],
  async handle({ id, ...fields }, ctx) {
    await ctx.v2.patch(V2.h323Devices.update.at(id), toV2(H323_DEVICE_ROWS, fields));
    return { id, updated_at: ctx.nowIso() };
  },
});

/** /h323/device/delete → DELETE /h323/devices/{id}. */
export const h323DeviceDelete = defineEndpoint({
  path: '/h323/device/delete',
  params: v1Params({ id: v1.id() }),
  v2Calls: [V2.h323Devices.delete],
  async handle({ id }, ctx) {
    await ctx.v2.delete(V2.h323Devices.delete.at(id));
    return { id, deleted_at: ctx.nowIso() };
  },
});
