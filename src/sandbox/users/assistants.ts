import type { SandboxApp, SandboxContext } from '../context.js';
import { invalidField, notFound, V2Code } from '../errors.js';
import type { Account } from '../model/account.js';
import type { User } from '../model/user.js';
import type { SandboxState } from '../state.js';
import { readBody } from '../validation.js';
import { pathUser } from './path.js';
import { renderUserRef } from './render.js';
import { assistantsBody } from './schemas.js';

/**
 * Assistants and schedulers are one relation seen from both ends: Y is X's assistant (Y may
 * schedule for X) exactly when X is one of Y's schedulers. Only `assistant_ids` is stored.
 */

const assistantsOf = (state: SandboxState, user: User) =>
  user.assistant_ids.map((id) => state.users.get(id)).filter((u): u is User => u !== undefined);

const schedulersOf = (state: SandboxState, user: User) =>
  [...state.users.values()].filter((other) => other.account_id === user.account_id && other.assistant_ids.includes(user.id));

const unlink = (scheduler: User, assistant: User) => {
  scheduler.assistant_ids = scheduler.assistant_ids.filter((id) => id !== assistant.id);
};

/** One end of the relation named in a path (`{assistantId}`, `{schedulerId}`): by id or email, and it must be linked. */
function linkedUser(state: SandboxState, account: Account, ref: string, linked: User[], what: string): User {
  const user = state.findUser(account, ref);
  if (!user || !linked.includes(user)) throw notFound(V2Code.userNotExist, `${what} not found: ${ref}.`);
  return user;
}

export function registerAssistantRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/users/:userId/assistants', (c) => {
    return c.json({ assistants: assistantsOf(state, pathUser(c, state)).map(renderUserRef) });
  });

  app.post('/users/:userId/assistants', async (c) => {
    const user = pathUser(c, state);
    const { assistants } = await readBody(c, assistantsBody);
    const account = c.get('account');
    // Resolve every entry before adding any, so one bad entry adds nobody.
    const added = assistants.map((ref, index) => {
      const assistant = ref.id !== undefined ? state.findUser(account, ref.id) : state.findUser(account, ref.email!);
      if (!assistant) throw notFound(V2Code.userNotExist, `User does not exist: ${ref.id ?? ref.email}.`);
      if (assistant === user) throw invalidField(`assistants.${index}`, 'A user cannot be their own assistant.');
      return assistant;
    });
    const ids = [...new Set(added.map((a) => a.id))];
    user.assistant_ids = [...user.assistant_ids, ...ids.filter((id) => !user.assistant_ids.includes(id))];
    return c.json({ ids: ids.join(','), add_at: state.nowIso() }, 201);
  });

  app.delete('/users/:userId/assistants', (c) => {
    pathUser(c, state).assistant_ids = [];
    return c.body(null, 204);
  });

  app.delete('/users/:userId/assistants/:assistantId', (c) => {
    const user = pathUser(c, state);
    const assistant = linkedUser(state, c.get('account'), c.req.param('assistantId'), assistantsOf(state, user), 'Assistant');
    unlink(user, assistant);
    return c.body(null, 204);
  });

  app.get('/users/:userId/schedulers', (c) => {
    // The spec (and the reference) name this list `assistants` too.
    return c.json({ assistants: schedulersOf(state, pathUser(c, state)).map(renderUserRef) });
  });

  app.delete('/users/:userId/schedulers', (c) => {
    const user = pathUser(c, state);
    for (const scheduler of schedulersOf(state, user)) unlink(scheduler, user);
    return c.body(null, 204);
  });

  app.delete('/users/:userId/schedulers/:schedulerId', (c) => {
    const user = pathUser(c, state);
    const scheduler = linkedUser(state, c.get('account'), c.req.param('schedulerId'), schedulersOf(state, user), 'Scheduler');
    unlink(scheduler, user);
    return c.body(null, 204);
  });
}
