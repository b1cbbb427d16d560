import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import { notFound, V2Code } from '../errors.js';
import { opaqueId } from '../ids.js';
import { orRequired } from '../users/schemas.js';
import type { Account } from '../model/account.js';
import { pageBody, paginate } from '../paging.js';
import { readBody } from '../validation.js';

/** An H.323/SIP room device of an account (the reference's `Device`, with its id). */
export interface H323Device {
  id: string;
  account_id: string;
  name: string;
  protocol: 'H.323' | 'SIP';
  ip: string;
  encryption: 'auto' | 'yes' | 'no';
}

const deviceFields = {
  name: z.string(orRequired('Must be a string.')).trim().min(1, 'Name must not be empty.').max(64, 'Name must be at most 64 characters.'),
  protocol: z.enum(['H.323', 'SIP'], orRequired('Must be H.323 or SIP.')),
  ip: z.string(orRequired('Must be a string.')).trim().min(1, 'Ip must not be empty.').max(256, 'Ip must be at most 256 characters.'),
  encryption: z.enum(['auto', 'yes', 'no'], orRequired('Must be auto, yes or no.')),
};

/** The reference requires all four fields on create; a PATCH changes the ones it names. */
const createSchema = z.strictObject(deviceFields);
const patchSchema = z.strictObject(deviceFields).partial();

const render = ({ id, name, protocol, ip, encryption }: H323Device) => ({ id, name, protocol, ip, encryption });

/**
 * H.323/SIP devices: /h323/devices and /h323/devices/{deviceId}, per account, in creation order.
 * Neither spec names the code of an unknown device; it is answered as an invalid parameter (300),
 * as the service answers other unknown ids it does not name.
 */
export function registerH323Routes(app: SandboxApp, { state }: SandboxContext): void {
  const devices = new Map<string, H323Device>();
  const requireDevice = (account: Account, id: string) => {
    const device = devices.get(id);
    if (!device || device.account_id !== account.id) throw notFound(V2Code.invalidParameter, `H.323/SIP Device not found: ${id}.`);
    return device;
  };

  app.get('/h323/devices', (c) => {
    const account = c.var.account;
    const page = paginate(
      c,
      state.pages,
      `h323_devices:${account.id}`,
      [...devices.values()].filter((d) => d.account_id === account.id),
    );
    return c.json(pageBody({ ...page, items: page.items.map(render) }, 'devices'));
  });

  app.post('/h323/devices', async (c) => {
    const body = await readBody(c, createSchema);
    const device: H323Device = { id: opaqueId(), account_id: c.var.account.id, ...body };
    devices.set(device.id, device);
    c.header('Content-Location', `/h323/devices/${device.id}`);
    return c.json(render(device), 201);
  });

  app.patch('/h323/devices/:deviceId', async (c) => {
    const device = requireDevice(c.var.account, c.req.param('deviceId'));
    const patch = await readBody(c, patchSchema, { allowEmpty: true });
    Object.assign(device, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
    return c.body(null, 204);
  });

  app.delete('/h323/devices/:deviceId', (c) => {
    const device = requireDevice(c.var.account, c.req.param('deviceId'));
    devices.delete(device.id);
    return c.body(null, 204);
  });
}
