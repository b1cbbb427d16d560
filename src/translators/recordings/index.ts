import type { EndpointDefinition } from '../define.js';
import { recordingList } from './list.js';

/** The v1 recording endpoints (our v1 spec has one: /recording/list). */
export const recordingsEndpoints: EndpointDefinition<any>[] = [recordingList];
