import type { SandboxApp, SandboxContext } from '../context.js';
import { readBody, readQuery } from '../validation.js';
import { pathUser } from './path.js';
import { loginTypeQuery } from './schemas.js';
import { applySettingsPatch, userSettingsPatchBody } from './settings.js';

export function registerUserSettingsRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/users/:userId/settings', (c) => {
    const user = pathUser(c, state);
    readQuery(c, loginTypeQuery);
    return c.json(user.settings);
  });

  app.patch('/users/:userId/settings', async (c) => {
    const user = pathUser(c, state);
    applySettingsPatch(user.settings, await readBody(c, userSettingsPatchBody, { allowEmpty: true }));
    return c.body(null, 204);
  });
}
