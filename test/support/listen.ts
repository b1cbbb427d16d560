import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  port: number;
  server: ServerType;
  close(): Promise<void>;
}

/** Serve a fetch handler on an ephemeral loopback port (real HTTP, real sockets). */
export function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<Listening> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        server,
        close: () =>
          new Promise<void>((done) => {
            // Drop idle keep-alive sockets so close() does not wait for them.
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
