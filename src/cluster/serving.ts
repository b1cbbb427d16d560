import cluster from 'node:cluster';
import type { Server } from 'node:http';

/**
 * What a worker was serving when it died: the requests it had begun and not finished, each as its
 * method and path (no query string, and a long token-like segment, such as a download link's
 * seal, as `{token}`), so the primary's line about the death names the route that may have
 * caused it without writing a credential. Told to the primary from the worker's last moment (an
 * uncaught exception, seen before the process ends); a worker killed from outside says nothing.
 */

/** The message a dying worker sends its primary. */
export interface DyingWorker {
  cmd: typeof DYING;
  /** The routes in flight, oldest first (at most MAX_ROUTES). */
  serving: string[];
  /** The uncaught error's name and the start of its message. */
  error: string;
}

export const DYING = 'v1gate.worker.dying';

const MAX_ROUTES = 20;
const MAX_PATH_CHARS = 200;
/** A segment as long as a token or a sealed link, of the characters they are written in. */
const TOKEN_SEGMENT = /(?<=\/)[A-Za-z0-9_~.=%+-]{40,}(?=\/|$)/g;

/** `GET /downloads/{token}` for `GET /downloads/AbC...?x=1`: a request as a death's line names it. */
export function routeOf(method: string | undefined, url: string | undefined): string {
  const path = (url ?? '').split('?', 1)[0]!.replace(TOKEN_SEGMENT, '{token}');
  return `${method ?? '?'} ${path.length > MAX_PATH_CHARS ? `${path.slice(0, MAX_PATH_CHARS)}…` : path}`;
}

/** Follows `server`'s requests: the routes it is serving now, oldest first. */
export function followRoutes(server: Server): () => string[] {
  const serving = new Set<{ route: string }>();
  server.on('request', (request, response) => {
    const entry = { route: routeOf(request.method, request.url) };
    serving.add(entry);
    response.once('close', () => serving.delete(entry));
  });
  return () => [...serving].slice(0, MAX_ROUTES).map((entry) => entry.route);
}

/** Whether an IPC message is a dying worker's. */
function isDyingWorker(message: unknown): message is DyingWorker {
  return typeof message === 'object' && message !== null && (message as DyingWorker).cmd === DYING;
}

/**
 * Tells the primary, as the worker dies of an uncaught exception, what it was serving. The
 * monitor runs before Node's own handling, which it leaves as it is (the error printed, exit 1);
 * the message is written to the IPC pipe at once, before the process ends.
 */
export function reportDeathTo(primary: NodeJS.Process, serving: () => string[]): void {
  process.on('uncaughtExceptionMonitor', (error) => {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const message: DyingWorker = { cmd: DYING, serving: serving(), error: text.slice(0, 200) };
    try {
      primary.send?.(message);
    } catch {
      // The channel is gone already: the primary logs the death without the routes.
    }
  });
}

/** What workers dying of an uncaught exception said they were serving, each kept until its exit is logged. */
export class LastWords {
  private readonly said = new Map<number, Pick<DyingWorker, 'serving' | 'error'>>();

  /** Listens to every worker of the cluster (the primary's). */
  constructor() {
    cluster.on('message', (worker, message: unknown) => {
      if (isDyingWorker(message)) this.said.set(worker.id, { serving: message.serving, error: message.error });
    });
  }

  /** What the worker said, once (its exit is logged with it); undefined when it said nothing (killed). */
  take(workerId: number): Pick<DyingWorker, 'serving' | 'error'> | undefined {
    const said = this.said.get(workerId);
    this.said.delete(workerId);
    return said;
  }
}
