import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { BodyReadError, RequestBudget } from './body-budget.js';

/**
 * What the transport knows about each connection and each request, in one typed object each: the
 * server, the body reader and the reader of unframed bodies read and write these fields, and
 * nothing else is set on Node's sockets and requests. Each object hangs from its socket or
 * request under one symbol (a property read, not a WeakMap lookup: this is every request's path),
 * and lives and dies with it.
 */

/** How far a connection's answer bytes had moved when last looked at, and since when: a stalled sender is cut. */
export interface SendProgress {
  moved: string;
  since: number;
}

/** One connection, as the server, its parser and the body reader see it. */
export class ConnectionState {
  /** Requests handed to the app whose answers have not gone yet. */
  inFlight = 0;
  /** The request last handed to the app, and its response: the one a passing deadline is about. */
  request: IncomingMessage | undefined = undefined;
  response: ServerResponse | undefined = undefined;
  /** A request on it ended the connection: later requests on it must not run. */
  closing = false;
  /** The body bytes the server had to cut, and why: what the route answers instead of reading. */
  bodyCut: BodyReadError | undefined = undefined;
  /** Set while answer bytes wait to be sent. */
  sendProgress: SendProgress | undefined = undefined;
}

/** One request, from the moment the server accepts it until its answer has gone. */
export class RequestState {
  /** What the server allows it (none: a request no server of ours accepted). */
  budget: RequestBudget | undefined = undefined;
  /** The request's deadline passed with its body still arriving. */
  deadlinePassed = false;
  /** The body read in progress, told at once when the deadline passes. */
  onDeadline: (() => void) | undefined = undefined;
  /** The pool bytes its body holds, given back when its answer has gone. */
  pooled = 0;
  /** A call: counted in flight here until its answer has gone (the server's `calls`). */
  countedBy: { finished(): void } | undefined = undefined;
  /** Pipelined behind a request that ended the connection: answered without running. */
  notRun = false;
  /** Why its path may not be routed at all, answered instead. */
  refusedPath: string | undefined = undefined;
}

const CONNECTION = Symbol('v1gate.connection');
const REQUEST = Symbol('v1gate.request');

type WithConnection = { [CONNECTION]?: ConnectionState };
type WithRequest = { [REQUEST]?: RequestState };

/** The state of the connection `stream` carries (a socket, or the stream Node's parser reads an unframed body from), made on first use. */
export function connectionOf(stream: object): ConnectionState {
  return ((stream as WithConnection)[CONNECTION] ??= new ConnectionState());
}

/** The state of the connection `stream` carries if it has one: reading it never makes one. */
export function connectionIfAny(stream: object | null | undefined): ConnectionState | undefined {
  return (stream as WithConnection | null | undefined)?.[CONNECTION];
}

/** The stream Node's parser reads a connection's bytes from, where it is not the socket: the two are one connection, with one state. */
export function shareConnection(stream: object, socket: object): void {
  (stream as WithConnection)[CONNECTION] = connectionOf(socket);
}

/** The state of a request, made on first use (a request no server of ours accepted gets one as its body is read). */
export function requestOf(incoming: IncomingMessage): RequestState {
  return ((incoming as WithRequest)[REQUEST] ??= new RequestState());
}

/** The state of a request if it has one: reading it never makes one. */
export function requestIfAny(incoming: IncomingMessage | undefined): RequestState | undefined {
  return (incoming as WithRequest | undefined)?.[REQUEST];
}

/** The connections each server holds open, with their state: one added as it opens, gone as it closes. */
const openBy = new WeakMap<Server, Map<Socket, ConnectionState>>();

/**
 * From now on, each connection the server accepts gets its state as it opens, and is in
 * `openConnections(server)` until it closes; then the state lets go of its last request and
 * response, so nothing of the connection outlives it.
 */
export function trackConnections(server: Server): ReadonlyMap<Socket, ConnectionState> {
  const open = new Map<Socket, ConnectionState>();
  openBy.set(server, open);
  server.on('connection', (socket: Socket) => {
    const state = connectionOf(socket);
    open.set(socket, state);
    socket.once('close', () => {
      open.delete(socket);
      state.request = undefined;
      state.response = undefined;
      state.sendProgress = undefined;
    });
  });
  return open;
}

/** The connections a server holds open now, each with its state (empty for a server not tracked). */
export function openConnections(server: Server): ReadonlyMap<Socket, ConnectionState> {
  return openBy.get(server) ?? new Map();
}
