import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { expectExampleShape, expectV1Error, NO_LIMITS, V1_TIME } from '../support/v1-answers.js';

/** v1's H.323/SIP devices over v2's /h323/devices: shapes from the v1 reference, values read back through v2. */

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway(NO_LIMITS);
});
afterAll(() => gw.close());

const v2Device = async (id: string) =>
  (await gw.v2('GET', '/h323/devices', { query: { page_size: 300 } })).body.devices.find((d: any) => d.id === id);

describe('/h323/device/*', () => {
  it("creates a device in the shape of the reference, with v1's numbers as v2's names", async () => {
    const created = await gw.v1('/h323/device/create', {
      name: 'Board room',
      ip: '192.168.1.10',
      protocol_type: '2',
      encryption_type: '1',
    });
    expectExampleShape(created, '/h323/device/create', { inOrder: true });
    expect(created).toEqual({ id: expect.any(String), name: 'Board room', ip: '192.168.1.10', protocol_type: 2, encryption_type: 1 });
    expect(await v2Device(created.id)).toEqual({
      id: created.id,
      name: 'Board room',
      ip: '192.168.1.10',
      protocol: 'SIP',
      encryption: 'yes',
    });
  });

  it("fills in v1's defaults: H.323, encryption auto", async () => {
    const created = await gw.v1('/h323/device/create', { name: 'Lobby', ip: '10.0.0.7' });
    expect(created).toMatchObject({ protocol_type: 1, encryption_type: 2 });
    expect(await v2Device(created.id)).toMatchObject({ protocol: 'H.323', encryption: 'auto' });
  });

  it('lists the devices with v1 paging, as v2 pages them', async () => {
    const all = await gw.v1('/h323/device/list', {});
    expectExampleShape(all, '/h323/device/list', { inOrder: true });
    for (const device of all.devices) expectExampleShape(device, '/h323/device/list', { item: 'devices', inOrder: true });
    const v2 = (await gw.v2('GET', '/h323/devices')).body;
    expect(all).toMatchObject({ page_count: v2.page_count, page_number: 1, page_size: 30, total_records: v2.total_records });
    expect(all.devices.map((d: any) => d.id)).toEqual(v2.devices.map((d: any) => d.id));
    const second = await gw.v1('/h323/device/list', { page_size: '1', page_number: '2' });
    expect(second).toMatchObject({ page_count: v2.total_records, page_number: 2, page_size: 1 });
    expect(second.devices.map((d: any) => d.id)).toEqual([v2.devices[1].id]);
  });

  it('updates only the fields given and answers the id and time', async () => {
    const created = await gw.v1('/h323/device/create', { name: 'Studio', ip: '10.0.0.8', protocol_type: '1', encryption_type: '0' });
    const updated = await gw.v1('/h323/device/update', { id: created.id, encryption_type: '1' });
    expectExampleShape(updated, '/h323/device/update', { inOrder: true });
    expect(updated.id).toBe(created.id);
    expect(updated.updated_at).toMatch(V1_TIME);
    expect(await v2Device(created.id)).toEqual({ id: created.id, name: 'Studio', ip: '10.0.0.8', protocol: 'H.323', encryption: 'yes' });
  });

  it('deletes a device and answers the id and time', async () => {
    const created = await gw.v1('/h323/device/create', { name: 'Old', ip: '10.0.0.9' });
    const deleted = await gw.v1('/h323/device/delete', { id: created.id });
    expectExampleShape(deleted, '/h323/device/delete', { inOrder: true });
    expect(deleted).toEqual({ id: created.id, deleted_at: expect.stringMatching(V1_TIME) });
    expect(await v2Device(created.id)).toBeUndefined();
    expectV1Error(await gw.v1('/h323/device/delete', { id: created.id }), 300, /not found/);
  });

  it('answers a v1 error for missing or bad fields, and changes nothing', async () => {
    const before = (await gw.v2('GET', '/h323/devices')).body.total_records;
    expect(await gw.v1('/h323/device/create', { ip: '10.0.0.1' })).toEqual({ error: { code: 300, message: 'name is required.' } });
    for (const params of [
      { name: 'X', ip: '10.0.0.1', protocol_type: '3' },
      { name: 'X', ip: '10.0.0.1', encryption_type: 'yes' },
      { name: 'X'.repeat(65), ip: '1' },
    ]) {
      const reply = await gw.v1Raw('/h323/device/create', params);
      expectV1Error(reply.body, 300);
      expect(reply.headers.get('x-v2-calls')).toBe('0');
    }
    expectV1Error(await gw.v1('/h323/device/update', { id: 'no-such-device', name: 'Y' }), 300, /not found/);
    expect((await gw.v2('GET', '/h323/devices')).body.total_records).toBe(before);
  });
});
