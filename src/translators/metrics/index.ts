import type { EndpointDefinition } from '../kit/define.js';
import { metricsMeetingDetail, metricsWebinarDetail } from './detail.js';
import { metricsQos } from './qos.js';
import { metricsZoomRoomDetail, metricsZoomRooms } from './rooms.js';
import { metricsMeetings, metricsWebinars } from './sessions.js';
import { metricsCrc, metricsIm } from './usage.js';

/** v1's dashboard (metrics) endpoints. */
export const metricsEndpoints: EndpointDefinition[] = [
  metricsMeetings,
  metricsWebinars,
  metricsMeetingDetail,
  metricsWebinarDetail,
  metricsQos,
  metricsZoomRooms,
  metricsZoomRoomDetail,
  metricsCrc,
  metricsIm,
];
