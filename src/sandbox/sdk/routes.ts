import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { SandboxContext } from '../context.js';
import { SDK_CODES, SdkError } from './errors.js';
import { ACTIONS, leaveWaiting, view } from './in-meeting.js';
import { join, parseJoin } from './join.js';
import { meetingSdkScript } from './script.js';
import { SdkRegistry } from './sessions.js';

/**
 * The offline browser meeting SDK 1.9.1, on the control app (so under /sandbox, loopback-only
 * unless SANDBOX_PUBLIC=1):
 *
 * GET  /sandbox/sdk/1.9.1/meeting-sdk.js        the script defining `MeetingSdk`
 * GET  /sandbox/sdk/1.9.1/lib/av/{file}          empty stand-ins for the media scripts prepareJssdk adds
 * POST /sandbox/sdk/apps                         body {account_id?} → 200 {account_id, sdk_key, sdk_secret}:
 *                                                the account's Meeting SDK app (the master's by default)
 * POST /sandbox/sdk/join                         body: the join options (a 1.9.1 signature with apiKey,
 *                                                or today's JWT signature with sdkKey) → 201 {session, status, view}
 * GET  /sandbox/sdk/sessions/{session}           → 200 view: status, current user, attendees, meeting
 * POST /sandbox/sdk/sessions/{session}/{action}  mute, muteAll, rename, expel, putOnHold, record,
 *                                                lockMeeting, leave, end → 200 {result, view}
 *
 * Errors answer `{errorCode, errorMessage}` with the SDK's codes. The session id is the page's
 * identity in the meeting: whoever holds it acts as that participant (a sandbox has no stronger
 * notion of who is on a page). Pages on any origin may call these routes (CORS), because a test
 * page is usually served from somewhere other than the gateway.
 */

export const SDK_VERSION = '1.9.1';
/** The media build the 1.9.1 bundle loads (its lib/av files are named `6331_...`). */
export const MEDIA_VERSION = 6331;
const MEDIA_FILE = new RegExp(`^${MEDIA_VERSION}_[a-z_]+\\.min\\.js$`);

export function registerSdkRoutes(app: Hono, { state, master }: SandboxContext): void {
  const registry = new SdkRegistry(state);
  const apps = state.sdkApps;
  app.use('/sdk/*', cors({ origin: '*', allowMethods: ['GET', 'POST'], allowHeaders: ['content-type'] }));

  app.get(`/sdk/${SDK_VERSION}/meeting-sdk.js`, (c) =>
    c.body(meetingSdkScript(), 200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-cache' }),
  );

  app.get(`/sdk/${SDK_VERSION}/lib/av/:file`, (c) => {
    const file = c.req.param('file');
    if (!MEDIA_FILE.test(file)) return c.json({ errorCode: SDK_CODES.error, errorMessage: `No library file ${file}.` }, 404);
    return c.body(`/* ${file}: the offline SDK has no media; this stands in so the page loads. */\n`, 200, {
      'content-type': 'application/javascript; charset=utf-8',
    });
  });

  app.post('/sdk/apps', async (c) =>
    answer(c, 200, async () => {
      const { account_id: id = master.id } = await jsonBody(c);
      const account = typeof id === 'string' ? state.accounts.get(id) : undefined;
      if (!account) throw new SdkError(SDK_CODES.invalidParameter, `No account ${String(id)}.`, 404);
      const sdk = apps.of(account);
      return { account_id: account.id, sdk_key: sdk.key, sdk_secret: sdk.secret };
    }),
  );

  app.post('/sdk/join', async (c) =>
    answer(c, 201, async () => {
      const session = join(state, registry, apps, parseJoin(await jsonBody(c)));
      const current = view(state, registry, session);
      return { session: session.id, role: session.role, status: current.status, view: current };
    }),
  );

  app.get('/sdk/sessions/:session', (c) => answer(c, 200, () => view(state, registry, sessionOf(c))));

  app.post('/sdk/sessions/:session/:action', async (c) =>
    answer(c, 200, async () => {
      const session = sessionOf(c);
      const name = c.req.param('action');
      const body = await jsonBody(c);
      if (name === 'leave' && leaveWaiting(session)) return { result: {}, view: view(state, registry, session) };
      const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
      if (!action) throw new SdkError(SDK_CODES.invalidParameter, `No such action: ${name}.`, 404);
      const result = action(state, registry, session, body);
      return { result, view: view(state, registry, session) };
    }),
  );

  function sessionOf(c: Context) {
    const session = registry.get(c.req.param('session') ?? '');
    if (!session) throw new SdkError(SDK_CODES.error, 'No such SDK session: join first.', 404);
    return session;
  }
}

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SdkError(SDK_CODES.invalidParameter, 'The body is not JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new SdkError(SDK_CODES.invalidParameter, 'The body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

/** Runs a handler and renders an SdkError in the SDK's own shape (other errors go to the app's handler). */
async function answer(c: Context, status: 200 | 201, run: () => unknown): Promise<Response> {
  try {
    return c.json((await run()) as object, status, { 'cache-control': 'no-store' });
  } catch (error) {
    if (error instanceof SdkError) return c.json(error.toBody(), error.status);
    throw error;
  }
}
