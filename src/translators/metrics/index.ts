import type { EndpointDefinition } from '../define.js';
import { metricsMeetingDetail, metricsWebinarDetail } from './detail.js';
import { metricsQos } from './qos.js';
import { metricsMeetings, metricsWebinars } from './sessions.js';

/** v1's dashboard (metrics) endpoints. */
export const metricsEndpoints: EndpointDefinition<any>[] = [metricsMeetings, metricsWebinars, metricsMeetingDetail, metricsWebinarDetail, metricsQos];
