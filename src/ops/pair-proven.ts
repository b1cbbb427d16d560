import type { V1CallRecord } from '../v1-steps/observe.js';

/**
 * Whether the call's api_key/api_secret pair was proven: v2 answered one of its calls with
 * anything but 401 (a JWT signed with that secret was accepted). Read from the v2 calls the
 * record lists, so a call that sent none (a bad parameter, a limiter refusal) proves nothing.
 */
export function pairProven(record: V1CallRecord): boolean {
  return record.apiKey !== undefined && record.v2Calls.some((call) => call.status !== 0 && call.status !== 401);
}
