/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Whether the request came from this machine (its socket's remote address is a loopback one). */
/** Takes any Hono context (only its Node bindings are read). */
export function isLoopbackCaller(c: { env: unknown }): boolean {
  const address = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return address !== undefined && LOOPBACK.test(address);
}

/** Whether a listen address keeps the server on this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || LOOPBACK.test(host);
}
