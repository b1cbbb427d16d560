import type { EndpointDefinition } from '../kit/define.js';
import { h323DeviceCreate, h323DeviceDelete, h323DeviceList, h323DeviceUpdate } from './devices.js';

/** v1's H.323/SIP room devices. */
export const h323Endpoints: EndpointDefinition[] = [h323DeviceList, h323DeviceCreate, h323DeviceUpdate, h323DeviceDelete];
