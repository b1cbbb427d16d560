import type { SandboxApp, SandboxContext } from '../context.js';

/** Sub accounts, options, settings, billing and plans: /accounts and everything under it. */
export function registerAccountRoutes(_app: SandboxApp, _ctx: SandboxContext): void {}
