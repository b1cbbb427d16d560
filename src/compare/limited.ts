import { V1Code, V1_RATE_LIMIT_MESSAGE } from '../v1/errors.js';
import type { Answer } from './answers.js';

/**
 * v1's rate-limit refusal, word for word: `{"error":{"code":403,"message":"Sorry, the maximum..."}}`
 * (403 alone is also v1's code for other refusals; the message tells them apart).
 */
export function isRateLimitRefusal(answer: Answer | undefined): boolean {
  const value = answer?.value;
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return Number(code) === V1Code.rateLimited && message === V1_RATE_LIMIT_MESSAGE;
}

/**
 * Only one side refused for its rate limits: the two answers then tell how busy each service was,
 * not how v1gate translates, so the call is counted apart (`skipped_limited`), never as a
 * difference. Both refusing is an answer like any other, and is compared.
 */
export function limitedOnOneSide(a: Answer, b: Answer): boolean {
  return isRateLimitRefusal(a) !== isRateLimitRefusal(b);
}
