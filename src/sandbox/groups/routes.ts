import type { SandboxApp, SandboxContext } from '../context.js';

/** Groups and IM groups, with their members. */
export function registerGroupRoutes(_app: SandboxApp, _ctx: SandboxContext): void {}
