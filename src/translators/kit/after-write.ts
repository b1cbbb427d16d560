import { toV1Error } from './failures.js';
import { V1Error } from '../../v1/errors.js';

/**
 * A v1 answer that needs reads after a write: once the write succeeded it stands, so a read that
 * fails afterwards must not turn it into a bare error (a client would retry and write twice). The
 * error then says what was done, with the read's own code and message.
 */
export async function answerAfterWrite<W, R>(
  write: Promise<W>,
  read: (written: W) => Promise<R>,
  done: (written: W) => string,
): Promise<R> {
  const written = await write;
  try {
    return await read(written);
  } catch (error) {
    const failure = toV1Error(error);
    throw new V1Error(failure.code, `${done(written)}, but reading it back for the answer failed: ${failure.message}`, {}, error);
  }
}

/** Start a read now, to overlap a write, and await it later: a failure before then is not unhandled. */
export function startedEarly<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}
