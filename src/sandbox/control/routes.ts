import type { Hono } from 'hono';
import type { SandboxContext } from '../context.js';

/** The sandbox control API under /sandbox: make meetings and webinars happen. */
export function registerControlRoutes(_app: Hono, _ctx: SandboxContext): void {}
