import { z } from 'zod';
import { V2_NUMBERED_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/** The v2 H.323/SIP device answers: a device is read through the device table by name. */

/** The 201 of POST /h323/devices. */
export const V2_H323_DEVICE = OBJECT_READ_BY_KEY;

/** GET /h323/devices, paged by number. */
export const V2_H323_DEVICE_PAGE = looseFields({ ...V2_NUMBERED_PAGE, devices: z.array(V2_H323_DEVICE) });
