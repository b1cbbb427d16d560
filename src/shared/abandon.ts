/**
 * Stops reading a stream nobody will read to its end. Destroying a readable without a reason makes
 * some emit one (undici's bodies emit `RequestAbortedError`), and an 'error' with no listener ends
 * the process: so the listener goes on first, and what the stream says after is expected and dropped.
 * The one way to let go of a body, a socket's stream or an answer we do not finish.
 */
export function abandon(stream: { on(event: 'error', listener: (error: Error) => void): unknown; destroy(): unknown }): void {
  stream.on('error', ignore);
  stream.destroy();
}

const ignore = () => {};
