import type { Context } from 'hono';
import type { SandboxEnv } from '../context.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';

/** The user a `{userId}` path names (id, email or `me`), or 404 1001: every `/users/{userId}/...` route starts here. */
export const pathUser = (c: Context<SandboxEnv>, state: SandboxState): User =>
  state.requireUser(c.get('account'), c.req.param('userId') ?? '');
