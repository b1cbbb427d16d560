import type { SandboxApp, SandboxContext } from '../context.js';
import { registerMeetingRecordingRoutes } from './meeting-recordings-routes.js';
import { registerDashboardRoutes } from './dashboard-routes.js';
import { registerMetricsDetailRoutes } from './metrics-detail-routes.js';
import { registerMetricsRoutes } from './metrics-routes.js';
import { registerPastRoutes } from './past-routes.js';
import { registerRecordingRoutes } from './recordings-routes.js';
import { registerReportRoutes } from './report-routes.js';
import { registerTelephoneRoutes } from './telephone-routes.js';
import { registerUsageRoutes } from './usage-routes.js';

/** Post-meeting data: past meetings and webinars, reports (usage included), live metrics, recordings. */
export function registerPostMeetingRoutes(app: SandboxApp, ctx: SandboxContext): void {
  const pages = ctx.state.pages;
  registerPastRoutes(app, ctx, pages);
  registerReportRoutes(app, ctx, pages);
  registerUsageRoutes(app, ctx, pages);
  registerTelephoneRoutes(app, ctx);
  registerMetricsRoutes(app, ctx, pages);
  registerMetricsDetailRoutes(app, ctx, pages);
  registerDashboardRoutes(app, ctx, pages);
  registerRecordingRoutes(app, ctx, pages);
  registerMeetingRecordingRoutes(app, ctx);
}
