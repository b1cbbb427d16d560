import type { Context } from 'hono';
import type { SandboxContext, SandboxEnv } from '../context.js';
import type { Meeting } from '../model/meeting.js';
import type { User } from '../model/user.js';
import type { KindSpec } from './kinds.js';

/**
 * The meeting or webinar a path names, with its host. A session whose host no longer exists went
 * with its host (the service deletes a user's meetings with the user), so it is not found either.
 */
export function requireSession(c: Context<SandboxEnv>, ctx: SandboxContext, spec: KindSpec): { meeting: Meeting; host: User } {
  const account = c.get('account');
  const id = c.req.param('id') ?? '';
  const meeting = ctx.state.requireMeeting(account, id, spec.kind);
  const host = ctx.state.users.get(meeting.host_id);
  if (!host) {
    // Drop the orphan; looking it up again now answers the kind's own 404.
    ctx.state.meetings.delete(meeting.id);
    return requireSession(c, ctx, spec);
  }
  return { meeting, host };
}

/** Sessions of one host and kind, oldest first. */
export function sessionsOf(ctx: SandboxContext, host: User, spec: KindSpec): Meeting[] {
  return [...ctx.state.meetings.values()].filter((m) => m.kind === spec.kind && m.host_id === host.id);
}
