import { invalidParameter } from '../../v1/errors.js';
import { isBackwards, reportDateParam, v1Date, v2Date, type ReportDate } from './report-date.js';

/** The required `from`..`to` of v1's usage reports. */
export const reportRangeParams = { from: reportDateParam(), to: reportDateParam() };

/**
 * The range as v2 takes it (query) and as v1 answered it. A backwards range is v1's invalid
 * parameter, answered before anything is sent to v2.
 */
export function reportRange(params: { from: ReportDate; to: ReportDate }) {
  if (isBackwards(params.from, params.to)) throw invalidParameter('to', 'Must not be before from.');
  return {
    v2: { from: v2Date(params.from), to: v2Date(params.to) },
    v1: { from: v1Date(params.from), to: v1Date(params.to) },
  };
}
