import { BodyReadError } from '../http/request-body.js';
import { Refusal } from '../translators/kit/failures.js';
import { ParamDecodeError } from './params.js';

/**
 * A request that could not be read, as the refusal the failure table answers: a body that did
 * not arrive whole or in time (`unreadable-body`), fields that could not be decoded
 * (`undecodable-params`). Any other error is handed back as it is. The one place such a failure
 * becomes a refusal: readFields (read.ts), the step every way in that reads v1 fields takes (the
 * facade, /sdk/signature), and shadow mode's reading of the call it forwards (src/compare/shadow.ts).
 */
export function refusalOfUnread(error: unknown): unknown {
  if (error instanceof BodyReadError) return new Refusal('unreadable-body', error.message);
  if (error instanceof ParamDecodeError) return new Refusal('undecodable-params', error.message);
  return error;
}
