import { enumCodec, type FieldTable } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';

/**
 * H.323/SIP room devices: v1's /h323/device/* fields ↔ v2's `Device` (/h323/devices). v1 numbered
 * the protocol and the encryption; v2 names them. In v1's field order (the reference's examples).
 */
export const H323_DEVICE_ROWS: FieldTable = [
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'name', v2: 'name', type: v1.string({ min: 1, max: 64 }) },
  { v1: 'ip', v2: 'ip', type: v1.string({ min: 1 }) },
  {
    v1: 'protocol_type',
    v2: 'protocol',
    type: v1.int({ min: 1, max: 2 }),
    codec: enumCodec([
      [1, 'H.323'],
      [2, 'SIP'],
    ]),
    v1Default: 1,
    note: 'v1 made it optional; a device with none is H.323, the first of its values.',
  },
  {
    v1: 'encryption_type',
    v2: 'encryption',
    type: v1.int({ min: 0, max: 2 }),
    codec: enumCodec([
      [0, 'no'],
      [1, 'yes'],
      [2, 'auto'],
    ]),
    v1Default: 2,
    note: 'v1 made it optional; a device with none negotiates encryption (auto), as the reference example shows.',
  },
];
