import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** One invalid field of a 400 answer: `field` is the dotted v2 path (`settings.audio`). */
export interface V2FieldError {
  field: string;
  message: string;
}

/** The v2 error body: `{code, message}` plus `errors` for field validation failures. */
export interface V2ErrorBody {
  code: number;
  message: string;
  errors?: V2FieldError[];
}

/** Thrown anywhere in a sandbox handler; the app's error handler renders it as the v2 error answer. */
export class SandboxError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: number,
    message: string,
    readonly errors?: V2FieldError[],
  ) {
    super(message);
    this.name = 'SandboxError';
  }

  toBody(): V2ErrorBody {
    return this.errors ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }
}

/** Error codes the v2 service answers with (most are the v1 codes; see DESIGN.md). */
export const V2Code = {
  invalidParameter: 300,
  noPrivilege: 200,
  invalidAccessToken: 124,
  rateLimited: 429,
  userNotExist: 1001,
  userAlreadyExists: 1005,
  meetingNotFound: 3001,
  notMeetingHost: 3003,
  webinarNotFound: 3001,
  registrantNotFound: 3027,
  /** Not shown by either spec; the sandbox's choice, next to registrantNotFound. */
  panelistNotFound: 3028,
  groupNotExist: 4130,
  groupNameExists: 4132,
  accountNotFound: 2001,
} as const;

export const badRequest = (message: string, errors?: V2FieldError[]) => new SandboxError(400, V2Code.invalidParameter, message, errors);

export const validationFailed = (errors: V2FieldError[]) => new SandboxError(400, V2Code.invalidParameter, 'Validation Failed.', errors);

export const invalidField = (field: string, message: string) => validationFailed([{ field, message }]);

export const notFound = (code: number, message: string) => new SandboxError(404, code, message);

export const conflict = (code: number, message: string) => new SandboxError(409, code, message);

export const userNotFound = (ref: string) => notFound(V2Code.userNotExist, `User does not exist: ${ref}.`);
