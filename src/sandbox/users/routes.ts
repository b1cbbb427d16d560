import type { SandboxApp, SandboxContext } from '../context.js';

/** Users: /users, /users/{userId} and everything under it, /users/email, /users/zpk, /users/vanity_name. */
export function registerUserRoutes(_app: SandboxApp, _ctx: SandboxContext): void {}
