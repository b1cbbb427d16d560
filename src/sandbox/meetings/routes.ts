import type { SandboxApp, SandboxContext } from '../context.js';
import { KINDS } from './kinds.js';
import { registerPanelistRoutes } from './panelists-routes.js';
import { registerRegistrantRoutes } from './registrants-routes.js';
import { registerSessionRoutes } from './sessions-routes.js';

/**
 * Meetings and webinars: scheduling, status, registrants, panelists. One set of handlers serves
 * both kinds; `KindSpec` (kinds.ts) holds what differs. Post-meeting endpoints live in ../report.
 */
export function registerMeetingRoutes(app: SandboxApp, ctx: SandboxContext): void {
  const pages = ctx.state.pages;
  for (const spec of KINDS) {
    registerSessionRoutes(app, ctx, spec);
    registerRegistrantRoutes(app, ctx, spec, pages);
  }
  registerPanelistRoutes(app, ctx);
}
