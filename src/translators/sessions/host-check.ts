import { V1Code } from '../../v1/errors.js';
import { V2Error } from '../../upstream/errors.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { V1Error } from '../../v1/errors.js';
import type { TranslatorContext } from '../kit/define.js';
import { allInOrder } from '../kit/settle.js';
import type { SessionKind, SessionRoutes } from './kinds.js';
import { type V2Session } from '../kit/v2-answers/sessions.js';

/** The routes the host check calls: the session, and the host when the session's own host_id does not prove it. */
export const OWN_SESSION_CALLS = (kind: SessionKind) => [kind.v2.get, V2.users.get] as const;

/** What the host check calls: an endpoint that calls it declares them (OWN_SESSION_CALLS). */
export type HostCheckRoute = SessionRoutes['get'] | typeof V2.users.get;

/**
 * v1 calls on one meeting or webinar carry the host's id; v2 calls need only the number. The
 * host check makes a v1 call on another host's session the v1 error it was, never a silent
 * success: unknown host 1001, unknown session 3001 (host checked first, as v1 did), a session of
 * another host of the account 3003. The host is only looked up when the session's own host_id
 * does not already prove it (a miss or a mismatch), so the common case costs one v2 read.
 */
export async function requireOwnSession(
  ctx: TranslatorContext<HostCheckRoute>,
  kind: SessionKind,
  id: string,
  hostId: string,
): Promise<V2Session> {
  let session: V2Session;
  try {
    session = await ctx.v2.get(kind.v2.get.at(id));
  } catch (error) {
    if (error instanceof V2Error && error.status === 404) await requireHostId(ctx, hostId);
    throw error;
  }
  await ensureOwner(ctx, kind, session, hostId);
  return session;
}

/**
 * The host check, with another read of the same call made alongside it (one round trip instead of
 * two). The check decides: if it fails, its error is the answer, whatever the read found; the
 * read's own failure comes next.
 *
 * `keyedByHost`: the read is itself keyed by the host (GET /users/{hostId}/meetings?type=live
 * answers 1001 for an unknown host), so it is the first half of the check. Its failure then wins
 * over the session's, as the host's does in requireOwnSession, and a session v2 does not know
 * needs no host lookup of its own. Otherwise (a read keyed by the session, like its panelists)
 * the full requireOwnSession runs alongside the read.
 */
export async function readOwnSession<T>(
  ctx: TranslatorContext<HostCheckRoute>,
  kind: SessionKind,
  id: string,
  hostId: string,
  read: () => Promise<T>,
  { keyedByHost = false }: { keyedByHost?: boolean } = {},
): Promise<[V2Session, T]> {
  if (keyedByHost) {
    const [byHost, session] = await allInOrder<[T, V2Session]>([read(), ctx.v2.get(kind.v2.get.at(id))]);
    await ensureOwner(ctx, kind, session, hostId);
    return [session, byHost];
  }
  return allInOrder<[V2Session, T]>([requireOwnSession(ctx, kind, id, hostId), read()]);
}

/** 3003 unless `hostId` (a user id, or an email as v2 also takes) is the session's host; 1001 for no such user. */
async function ensureOwner(ctx: TranslatorContext<HostCheckRoute>, kind: SessionKind, session: V2Session, hostId: string): Promise<void> {
  if (session.host_id === hostId) return;
  if (session.host_id === (await requireHostId(ctx, hostId))) return;
  throw new V1Error(V1Code.notMeetingHost, `The ${kind.noun} ${session.id} is not hosted by user ${hostId}.`);
}

/** The user id of `hostId` (an id, or an email as v2 also takes); 1001 when there is no such user. */
export async function requireHostId(ctx: TranslatorContext<typeof V2.users.get>, hostId: string): Promise<string> {
  const user = await ctx.v2.get(V2.users.get.at(hostId));
  return user.id;
}
