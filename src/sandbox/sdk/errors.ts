/**
 * The browser SDK's error codes (spec: browser-sdk-1.9.1.md, Errors) as the offline SDK's routes
 * answer them: `{errorCode, errorMessage}` with an HTTP status that says roughly why, so curl users
 * and the page both read the same thing. The page hands code and message to the callback as is.
 */

export const SDK_CODES = {
  error: 1,
  notHost: 3003,
  wrongPassword: 3004,
  webinarNeedsEmail: 3005,
  notStarted: 3008,
  removed: 3009,
  webinarStartNotAllowed: 3609,
  apiWrong: 3704,
  meetingNotFound: 3707,
  hostNotFound: 3709,
  cannotHostAnother: 3711,
  /** Not in the 1.9.1 list: today's SDK refusing a start without the host's ZAK (the sandbox's code, marked so). */
  zakRequired: 3713,
  invalidParameter: 4003,
} as const;

export class SdkError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status: 400 | 403 | 404 | 409 = 400,
  ) {
    super(message);
  }

  toBody(): { errorCode: number; errorMessage: string } {
    return { errorCode: this.code, errorMessage: this.message };
  }
}

export const invalidParameter = (name: string, why: string) =>
  new SdkError(SDK_CODES.invalidParameter, `Invalid parameter ${name}: ${why}`);

export const notHost = () => new SdkError(SDK_CODES.notHost, 'Only the host can do this.', 403);
