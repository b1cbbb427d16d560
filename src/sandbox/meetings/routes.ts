import type { SandboxApp, SandboxContext } from '../context.js';

/** Meetings and webinars: scheduling, status, registrants, panelists. */
export function registerMeetingRoutes(_app: SandboxApp, _ctx: SandboxContext): void {}
