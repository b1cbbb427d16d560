import type { SandboxApp, SandboxContext } from '../context.js';
import { registerBillingRoutes } from './billing.js';
import { registerPlanRoutes } from './plans.js';
import { registerAccountSettingsRoutes } from './settings.js';
import { registerSubAccountRoutes } from './sub-accounts.js';

/** Sub accounts, options, settings, billing and plans: /accounts and everything under it. */
export function registerAccountRoutes(app: SandboxApp, ctx: SandboxContext): void {
  registerSubAccountRoutes(app, ctx);
  registerAccountSettingsRoutes(app, ctx);
  registerBillingRoutes(app, ctx);
  registerPlanRoutes(app, ctx);
}
