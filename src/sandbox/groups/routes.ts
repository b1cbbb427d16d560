import type { SandboxApp, SandboxContext } from '../context.js';
import { registerPlainGroupRoutes } from './group-routes.js';
import { registerImGroupRoutes } from './im-group-routes.js';

/** Groups and IM groups, with their members. */
export function registerGroupRoutes(app: SandboxApp, ctx: SandboxContext): void {
  registerPlainGroupRoutes(app, ctx);
  registerImGroupRoutes(app, ctx);
}
