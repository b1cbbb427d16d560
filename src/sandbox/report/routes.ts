import type { SandboxApp, SandboxContext } from '../context.js';

/** Post-meeting data: past meetings and webinars, reports, live metrics, recordings. */
export function registerPostMeetingRoutes(_app: SandboxApp, _ctx: SandboxContext): void {}
