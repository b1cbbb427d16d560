import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { clientEnv, clientRecordFile, expectRecipeOfRecord, runProgram, startClientFixtures, type ClientFixtures } from './support.js';

/**
 * Published v1 client libraries, run unchanged against a real gateway over the real sandbox: the
 * exact released source, vendored under vendor/ with its licence and origin, pointed at the gateway
 * only by the library's own base-URL setting, over the HTTP and JSON libraries Debian packages.
 * Each driver (python/, ruby-gem/) makes the calls an integration makes through the library's public
 * API, checks every answer against what it sent, and exits non-zero at the first the library
 * refuses; this file then checks what the drivers read against v2. A missing interpreter or library
 * skips its driver with a message; CI installs them (.ci/run).
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
/** The range as a v1 report wrote it back: unpadded, as the reference prints it (docs/decisions.md, "Report dates"). */
const REPORT_AS_WRITTEN = { from: '2024-5-1', to: '2024-5-31' };
/** Debian's interpreter, which python3-requests installs into; a `python3` earlier on PATH may lack it. */
const PYTHON = '/usr/bin/python3';

let gw: TestGateway;
let ownerId: string;
let ownerEmail: string;
let long: number;
let short: number;
let fixtures: ClientFixtures;

const recordFile = clientRecordFile();

beforeAll(async () => {
  fixtures = await startClientFixtures({ V1_RECORD_FILE: recordFile });
  ({ gw, ownerId, ownerEmail, long, short } = fixtures);
});
afterAll(async () => {
  await gw.close();
});

/** Runs a driver; answers the JSON object it printed (its stderr names the answer it could not take). */
const runDriver = (command: string, file: string, inviteEmail: string): Promise<any> =>
  // The vendored source stays as published: no __pycache__ beside it.
  runProgram(command, [file], clientEnv(fixtures, { INVITE_EMAIL: inviteEmail, PYTHONDONTWRITEBYTECODE: '1' }));

const v2Status = async (path: string) => (await gw.v2('GET', path)).status;
/** The v1 error the gateway answers for reading a deleted meeting, as a form-posting client sees it. */
const deletedMeetingError = async (id: number) => (await gw.v1Raw('/meeting/get', { id: String(id), host_id: ownerId })).body.error;

describe('Python: zoomus 0.1.8 (prschmid/zoomus) over requests', () => {
  const ready = works(PYTHON, ['-c', 'import requests']);
  it.skipIf(!ready)(
    `runs users, meetings, webinars, reports and recordings through the package${ready ? '' : ' (skipped: no /usr/bin/python3 with requests here; CI installs python3-requests)'}`,
    async () => {
      const out = await runDriver(PYTHON, join(here, 'python', 'client.py'), 'invited.python@example.com');
      expect(out).toMatchObject({
        owner_id: ownerId,
        meeting_topic: 'Renamed by Python',
        report_from: REPORT_AS_WRITTEN.from,
        report_to: REPORT_AS_WRITTEN.to,
      });
      expect(out.user_report_meetings).toEqual(expect.arrayContaining([long, short]));
      expect(out.report_users).toContain(ownerEmail);
      // What the package deleted is gone from v2, and reading the meeting again was the gateway's own error.
      expect(await v2Status(`/users/${out.invited_id}`)).toBe(404);
      expect(await v2Status(`/meetings/${out.meeting_id}`)).toBe(404);
      expect(out.deleted_meeting_error).toEqual(await deletedMeetingError(out.meeting_id));
      expect(out.deleted_meeting_error.code).toBe(3001);
      expect(await v2Status(`/webinars/${out.webinar_id}`)).toBe(404);
      expect(out.recordings).toBe(0);
    },
    150_000,
  );
});

describe('Ruby: the zoomus gem 0.7.0 (mllocs/zoomus) over HTTParty', () => {
  const ready = works('ruby', ['-e', 'require "httparty"']);
  it.skipIf(!ready)(
    `runs users, meetings, webinars, the dashboard and reports through the gem${ready ? '' : ' (skipped: no ruby with httparty here; CI installs ruby-httparty)'}`,
    async () => {
      const out = await runDriver('ruby', join(here, 'ruby-gem', 'client.rb'), 'invited.gem@example.com');
      expect(out).toMatchObject({ owner_id: ownerId, report_from: REPORT_AS_WRITTEN.from, detail_participants: true, recordings: 0 });
      expect(out.dashboard).toMatchObject({ [long]: '01:15:00', [short]: '04:00' });
      expect(out.user_report_meetings).toEqual(expect.arrayContaining([long, short]));
      expect(out.daily_dates).toBe(31);
      expect(await v2Status(`/users/${out.invited_id}`)).toBe(404);
      expect(await v2Status(`/meetings/${out.meeting_id}`)).toBe(404);
      expect(out.deleted_meeting_error).toBe((await deletedMeetingError(out.meeting_id)).message);
      expect(await v2Status(`/webinars/${out.webinar_id}`)).toBe(404);
    },
    150_000,
  );
});

describe("the way out: the published clients' record", () => {
  it('gives a recipe that plans every endpoint they called, with the v2 calls each became, and --verify passes it', async () => {
    // The published libraries' every endpoint is done from the recipe alone.
    await expectRecipeOfRecord(recordFile, gw.credentials.api_key, 'all');
  }, 180_000);
});
