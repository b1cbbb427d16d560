import { V1Code } from '../../../mappings/errors.js';
import { V2Error } from '../../upstream/errors.js';
import { v2path } from '../../upstream/path.js';
import { V1Error } from '../../v1-facade/errors.js';
import type { TranslatorContext } from '../define.js';
import type { SessionKind } from './kinds.js';
import { sessionPath } from './paths.js';
import type { V2Session } from './v2-session.js';

/**
 * v1 calls on one meeting or webinar carry the host's id; v2 calls need only the number. The
 * host check makes a v1 call on another host's session the v1 error it was, never a silent
 * success: unknown host 1001, unknown session 3001 (host checked first, as v1 did), a session of
 * another host of the account 3003. The host is only looked up when the session's own host_id
 * does not already prove it (a miss or a mismatch), so the common case costs one v2 read.
 */
export async function requireOwnSession(ctx: TranslatorContext, kind: SessionKind, id: string, hostId: string): Promise<V2Session> {
  let session: V2Session;
  try {
    session = await ctx.v2.get<V2Session>(sessionPath(kind, id));
  } catch (error) {
    if (error instanceof V2Error && error.status === 404) await requireHostId(ctx, hostId);
    throw error;
  }
  await ensureOwner(ctx, kind, session, hostId);
  return session;
}

/**
 * The session, read together with a host-scoped read (`alongside`, which fails 1001 for an
 * unknown host): the host's error wins over the session's, as in requireOwnSession.
 */
export async function requireOwnSessionWith<T>(
  ctx: TranslatorContext,
  kind: SessionKind,
  id: string,
  hostId: string,
  alongside: Promise<T>,
): Promise<{ session: V2Session; also: T }> {
  const [session, also] = await Promise.allSettled([ctx.v2.get<V2Session>(sessionPath(kind, id)), alongside]);
  if (also.status === 'rejected') throw also.reason;
  if (session.status === 'rejected') throw session.reason;
  await ensureOwner(ctx, kind, session.value, hostId);
  return { session: session.value, also: also.value };
}

/** 3003 unless `hostId` (a user id, or an email as v2 also takes) is the session's host; 1001 for no such user. */
async function ensureOwner(ctx: TranslatorContext, kind: SessionKind, session: V2Session, hostId: string): Promise<void> {
  if (session.host_id === hostId) return;
  if (session.host_id === (await requireHostId(ctx, hostId))) return;
  throw new V1Error(V1Code.notMeetingHost, `The ${kind.noun} ${session.id} is not hosted by user ${hostId}.`);
}

/** The user id of `hostId` (an id, or an email as v2 also takes); 1001 when there is no such user. */
export async function requireHostId(ctx: TranslatorContext, hostId: string): Promise<string> {
  const user = await ctx.v2.get<{ id: string }>(v2path`/users/${hostId}`);
  return user.id;
}
