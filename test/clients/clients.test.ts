import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import {
  clientEnv as sharedEnv,
  clientRecordFile,
  expectRecipeOfRecord,
  REPORT,
  runProgram,
  startClientFixtures,
  type ClientFixtures,
} from './support.js';

/**
 * Real v1 client code against a real gateway over the real sandbox: programs in Go, PHP and Ruby
 * written the way the public clients of docs/live-evidence.md decode and send (each cites its
 * models), and the service's own Node binding from npm (`zoomus`). Each program makes the calls an
 * integration makes and exits non-zero at the first answer its language's decoding refuses. A
 * toolchain missing on this machine skips its program with a message; CI installs them (.ci/run).
 */

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const installed = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
let fixtures: ClientFixtures;
let gw: TestGateway;
let ownerId: string;
let ownerEmail: string;
let long: number;
let short: number;
let workDir: string;
const recordFile = clientRecordFile();

beforeAll(async () => {
  fixtures = await startClientFixtures({ V1_RECORD_FILE: recordFile });
  ({ gw, ownerId, ownerEmail, long, short } = fixtures);
  workDir = mkdtempSync(join(tmpdir(), 'v1gate-clients-'));
});
afterAll(async () => {
  await gw.close();
  rmSync(workDir, { recursive: true, force: true });
});

const clientEnv = () => sharedEnv(fixtures);
const runClient = (file: string, args: string[], env: NodeJS.ProcessEnv = clientEnv()) => runProgram(file, args, env);

const v2Status = async (path: string) => (await gw.v2('GET', path)).status;

describe('Go: encoding/json into typed structs, as the Go v1 binding decoded', () => {
  const go = installed('go');
  it.skipIf(!go)(
    `runs its calls and decodes every answer${go ? '' : ' (skipped: no Go toolchain here; CI installs golang-go)'}`,
    async () => {
      // Built once per run, offline: stdlib only, a private build cache, no module proxy.
      const binary = join(workDir, 'v1client-go');
      const goEnv = {
        ...process.env,
        GOCACHE: join(workDir, 'gocache'),
        GOPATH: join(workDir, 'gopath'),
        GOFLAGS: '',
        GOPROXY: 'off',
        GO111MODULE: 'on',
      };
      await run('go', ['build', '-o', binary, '.'], { cwd: join(here, 'go'), env: goEnv, timeout: 180_000 });
      const out = await runClient(binary, []);
      expect(out).toMatchObject({
        owner_id: ownerId,
        meeting_type: 2,
        meeting_topic: 'Renamed by Go',
        meeting_listed: true,
        updated_id: String(out.meeting_id),
        deleted_id: String(out.meeting_id),
        webinar_type: 5,
        registered_id: out.webinar_id,
        created_at_is_time: true,
      });
      expect(out.webinars_listed).toBeGreaterThan(0);
      expect(out.dashboard_seconds).toMatchObject({ [long]: 75 * 60, [short]: 4 * 60 });
      expect(await v2Status(`/meetings/${out.meeting_id}`)).toBe(404);
    },
    300_000,
  );
});

describe('PHP: http_build_query and json_decode, as the vendor sample and the WordPress and Moodle plugins', () => {
  const php = installed('php');
  it.skipIf(!php)(
    `runs its calls and reads every answer${php ? '' : ' (skipped: no php here; CI installs php-cli)'}`,
    async () => {
      const out = await runClient('php', [join(here, 'php', 'client.php')]);
      expect(out).toMatchObject({
        owner_id: ownerId,
        deleted_user_id: out.invited_id,
        meeting_id_type: 'integer',
        updated_id: String(out.meeting_id),
        // The update named only the topic: the series stayed a series.
        meeting_type: 8,
        meeting_topic: 'Renamed by PHP',
        option_jbh: true,
        option_host_video: false,
        report_from: [2024, 5, 1],
      });
      expect(out.dashboard_ids).toEqual(expect.arrayContaining([long, short]));
      expect(out.dashboard_durations).toEqual(expect.arrayContaining(['01:15:00', '04:00']));
      // The invited (pending) user deleted by id alone is gone.
      expect(await v2Status(`/users/${out.invited_id}`)).toBe(404);
    },
    150_000,
  );
});

describe('Ruby: params in the query string and Time report dates, as the Ruby gem', () => {
  const ruby = installed('ruby');
  it.skipIf(!ruby)(
    `runs its calls and reads every answer${ruby ? '' : ' (skipped: no ruby here; CI installs ruby)'}`,
    async () => {
      const out = await runClient('ruby', [join(here, 'ruby', 'client.rb')], { ...clientEnv(), TZ: 'UTC' });
      expect(out).toMatchObject({
        owner_id: ownerId,
        updated_id: String(out.meeting_id),
        meeting_type: 3,
        meeting_topic: 'Renamed by Ruby',
        webinar_type: 5,
        // Sent as date-times, read as the dates written in them.
        report_sent_from: '2024-05-01T00:00:00Z',
        report_from: '2024-5-1',
        report_to: '2024-5-31',
      });
      expect(out.user_report_meetings).toEqual(expect.arrayContaining([long, short]));
      expect(out.dashboard_ids).toEqual(expect.arrayContaining([long, short]));
    },
    150_000,
  );
});

/** The endpoints the Node binding's test below calls (`user.schedulers` posts to /user/scheduleforhost, `dashboard.meetings` to /metrics/meetings). */
const NODE_BINDING_ENDPOINTS = ['/user/getbyemail', '/meeting/create', '/meeting/get', '/user/scheduleforhost', '/metrics/meetings'];

describe("Node: the service's own v1 binding (npm zoomus)", () => {
  /** The binding's calls take a params object and a callback with the parsed answer. */
  type Call = (params: Record<string, unknown>, callback: (answer: any) => void) => void;
  const call = (method: Call, params: Record<string, unknown>) =>
    new Promise<any>((resolve) => method(params, resolve)).then((answer) => {
      expect(answer?.error, JSON.stringify(answer)).toBeUndefined();
      return answer;
    });

  it('creates, reads and lists through the binding, sending the numbers it was answered back', async () => {
    const Zoom = createRequire(import.meta.url)('zoomus');
    const { port } = new URL(gw.url);
    const zoom = Zoom({ key: gw.credentials.api_key, secret: gw.credentials.api_secret, protocol: 'http', host: '127.0.0.1', port });
    const owner = await call(zoom.user.getByEmail.bind(zoom.user), { email: ownerEmail });
    const meeting = await call(zoom.meeting.create.bind(zoom.meeting), { host_id: owner.id, type: 2, topic: 'Typed Node' });
    expect(typeof meeting.id).toBe('number');
    const read = await call(zoom.meeting.get.bind(zoom.meeting), { id: meeting.id, host_id: owner.id });
    expect(read).toMatchObject({ id: meeting.id, topic: 'Typed Node', type: 2 });
    // `user.schedulers` posts to /user/scheduleforhost (no /list).
    const schedulers = await call(zoom.user.schedulers.bind(zoom.user), { id: owner.id });
    expect(schedulers).toEqual({ total_records: 0, users: [] });
    const dashboard = await call(zoom.dashboard.meetings.bind(zoom.dashboard), { type: 2, ...REPORT });
    expect(dashboard.meetings.map((m: any) => [m.id, m.duration])).toEqual(
      expect.arrayContaining([
        [long, '01:15:00'],
        [short, '04:00'],
      ]),
    );
  });
});

describe('a Java client habit: every param in the URL of a POST with a JSON content type and no body', () => {
  it('is read from the query string, as the empty body says nothing', async () => {
    const query = new URLSearchParams({ ...gw.credentials, email: ownerEmail, login_type: '99' });
    const response = await fetch(`${gw.url}/v1/user/getbyemail?${query.toString()}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
    });
    expect(await response.json()).toMatchObject({ id: ownerId, email: ownerEmail });
  });
});

describe("the way out: these clients' record", () => {
  it('gives a recipe that plans every endpoint they called, with the v2 calls each became, and --verify passes it', async () => {
    // Every endpoint the service's own Node binding called passes; the others may say what the recipe cannot express.
    await expectRecipeOfRecord(recordFile, gw.credentials.api_key, NODE_BINDING_ENDPOINTS);
  }, 180_000);
});
