import type { SandboxApp, SandboxContext } from '../context.js';
import { paginate, pageBody } from '../paging.js';
import { readBody, readQuery } from '../validation.js';
import { refuseForOwner, registerUserAccessRoutes } from './access.js';
import { registerAssistantRoutes } from './assistants.js';
import { createUser } from './create.js';
import { registerUserLookupRoutes } from './lookups.js';
import { pathUser } from './path.js';
import { registerPictureRoutes } from './picture.js';
import { renderUser, renderUserListItem } from './render.js';
import { createUserBody, deleteUserQuery, listUsersQuery, loginTypeQuery, updateUserBody } from './schemas.js';
import { registerUserSettingsRoutes } from './settings-routes.js';
import { removalOptions, removeUser } from './remove.js';
import { updateUser } from './update.js';

/** Users: /users, /users/{userId} and everything under it, /users/email, /users/zpk, /users/vanity_name. */
export function registerUserRoutes(app: SandboxApp, ctx: SandboxContext): void {
  const { state } = ctx;
  // First: these fixed paths would otherwise be read as `/users/{userId}`.
  registerUserLookupRoutes(app, ctx);

  app.get('/users', (c) => {
    const { status = 'active' } = readQuery(c, listUsersQuery);
    const accountId = c.get('account').id;
    const users = [...state.users.values()].filter((u) => u.account_id === accountId && u.status === status);
    const page = paginate(c, state.pages, `users:${accountId}:${status}`, users);
    return c.json(pageBody({ ...page, items: page.items.map((u) => renderUserListItem(state, u)) }, 'users'));
  });

  app.post('/users', async (c) => {
    const user = createUser(ctx, c.get('account'), await readBody(c, createUserBody));
    c.header('Content-Location', `${ctx.publicUrl}/v2/users/${user.id}`);
    return c.json({ id: user.id, first_name: user.first_name, last_name: user.last_name, email: user.email, type: user.type }, 201);
  });

  app.get('/users/:userId', (c) => {
    const user = pathUser(c, state);
    readQuery(c, loginTypeQuery);
    return c.json(renderUser(ctx, user));
  });

  app.patch('/users/:userId', async (c) => {
    const user = pathUser(c, state);
    updateUser(state, user, await readBody(c, updateUserBody, { allowEmpty: true }));
    return c.body(null, 204);
  });

  app.delete('/users/:userId', (c) => {
    const account = c.get('account');
    const user = pathUser(c, state);
    const options = removalOptions(state, account, user, readQuery(c, deleteUserQuery));
    refuseForOwner(account, user, 'deleted or disassociated');
    removeUser(state, user, options);
    return c.body(null, 204);
  });

  registerUserSettingsRoutes(app, ctx);
  registerUserAccessRoutes(app, ctx);
  registerAssistantRoutes(app, ctx);
  registerPictureRoutes(app, ctx);
}
