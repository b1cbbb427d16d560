import { V1Code, V1_RATE_LIMIT_MESSAGE } from '../v1/errors.js';

/**
 * v1's rate-limit refusal, word for word: `{"error":{"code":403,"message":"Sorry, the maximum..."}}`
 * (403 alone is also v1's code for other refusals; the message tells them apart).
 */
export function isRateLimitRefusal(answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null) return false;
  const error = (answer as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return Number(code) === V1Code.rateLimited && message === V1_RATE_LIMIT_MESSAGE;
}

/**
 * Only one side refused for its rate limits: the two answers then tell how busy each service was,
 * not how v1gate translates, so the call is counted apart (`skipped_limited`), never as a
 * difference. Both refusing is an answer like any other, and is compared.
 */
export function limitedOnOneSide(a: unknown, b: unknown): boolean {
  return isRateLimitRefusal(a) !== isRateLimitRefusal(b);
}
