import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Account } from './model/account.js';
import type { ChatSession } from './model/chat.js';
import type { CrcHourUsage, ImDayActivity, ZoomRoom } from './model/dashboard.js';
import type { Group, ImGroup } from './model/group.js';
import type { Meeting } from './model/meeting.js';
import type { User } from './model/user.js';
import { START_APP_NAME, type OAuthApp } from './oauth/apps.js';
import type { SdkApp } from './sdk/apps.js';
import type { SandboxState } from './state.js';

/**
 * SANDBOX_DATA_FILE: the sandbox's data kept across restarts, so a migration tried against it (users,
 * meetings, groups, the OAuth and Meeting SDK apps a credential map names) is still there after a stop. Loaded at
 * start; written whole, beside the file and renamed over it (a crash leaves the old file or the
 * new, never half of one), every SAVE_EVERY_MS when something changed and at the stop. What is not
 * kept: the OAuth access tokens (clients ask again, as after an hour) and event subscriptions (the
 * gateway subscribes again at its start).
 */

/** Written at most this often while running; the stop writes what changed since. */
export const SAVE_EVERY_MS = 30_000;
/** The largest data file written or read: a sandbox filled past it is kept in memory only (and says so). */
export const MAX_DATA_BYTES = 64 * 1024 * 1024;
const FORMAT = 'v1gate-sandbox-data/1';

interface Snapshot {
  format: typeof FORMAT;
  accounts: Account[];
  users: User[];
  meetings: Meeting[];
  /** Keyed as the state keys them (a chat session by its session_id): entries, not values. */
  groups: [string, Group][];
  imGroups: [string, ImGroup][];
  chatSessions: [string, ChatSession][];
  zoomRooms: [string, ZoomRoom][];
  crcUsage: CrcHourUsage[];
  imActivity: ImDayActivity[];
  oauthApps: OAuthApp[];
  /** Absent from files written before SDK apps were kept. */
  sdkApps?: SdkApp[];
}

/** A data file that cannot be used: the start stops with this one line (it names SANDBOX_DATA_FILE). */
export class SandboxDataError extends Error {
  override readonly name = 'SandboxDataError';
}

export interface KeptData {
  /** What the file held when it was loaded at this start; undefined: there was no file yet. */
  loaded: { accounts: number; users: number; meetings: number } | undefined;
  /** Writes now if anything changed since the last write. */
  save(): void;
  /** Stops the timer and writes what changed. */
  close(): void;
}

/**
 * Loads `file` into the state (when it exists), then keeps it written. `master` is this start's
 * master account: the file must hold the same account (its ids come from the fixed credentials),
 * else it is another sandbox's data and the start refuses it. `onProblem` hears a write that failed.
 */
export function keepSandboxData(state: SandboxState, master: Account, file: string, onProblem: (message: string) => void): KeptData {
  const snapshot = existsSync(file) ? read(file) : undefined;
  if (snapshot) restore(state, master, file, snapshot);
  const loaded = snapshot && { accounts: snapshot.accounts.length, users: snapshot.users.length, meetings: snapshot.meetings.length };
  let written = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const save = () => {
    const text = `${JSON.stringify(snapshotOf(state))}\n`;
    if (text === written) return;
    if (Buffer.byteLength(text) > MAX_DATA_BYTES) {
      onProblem(`SANDBOX_DATA_FILE: the sandbox's data is past ${MAX_DATA_BYTES} bytes; ${file} keeps the last that fit`);
      return;
    }
    try {
      writeWhole(file, text);
      written = text;
    } catch (error) {
      onProblem(`SANDBOX_DATA_FILE: ${file} could not be written (${(error as { code?: string }).code ?? String(error)})`);
    }
  };
  const timer = setInterval(save, SAVE_EVERY_MS).unref();
  return {
    loaded,
    save,
    close: () => {
      clearInterval(timer);
      save();
    },
  };
}

function read(file: string): Snapshot {
  if (statSync(file).size > MAX_DATA_BYTES) throw new SandboxDataError(`SANDBOX_DATA_FILE: ${file} is larger than ${MAX_DATA_BYTES} bytes`);
  let snapshot: Partial<Snapshot>;
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as Partial<Snapshot>;
  } catch {
    throw new SandboxDataError(`SANDBOX_DATA_FILE: ${file} is not JSON (remove it to start with an empty sandbox)`);
  }
  if (snapshot?.format !== FORMAT) throw new SandboxDataError(`SANDBOX_DATA_FILE: ${file} is not a sandbox data file (${FORMAT})`);
  return snapshot as Snapshot;
}

function snapshotOf(state: SandboxState): Snapshot {
  const accounts = [...state.accounts.values()];
  return {
    format: FORMAT,
    accounts,
    users: [...state.users.values()],
    meetings: [...state.meetings.values()],
    groups: [...state.groups],
    imGroups: [...state.imGroups],
    chatSessions: [...state.chatSessions],
    zoomRooms: [...state.zoomRooms],
    crcUsage: state.crcUsage,
    imActivity: state.imActivity,
    oauthApps: accounts.flatMap((account) => state.oauthApps.ofAccount(account.id)),
    sdkApps: state.sdkApps.all(),
  };
}

/** The file's world in place of the fresh one; the master account object stays the one the routes hold. */
function restore(state: SandboxState, master: Account, file: string, snapshot: Snapshot): void {
  const savedMaster = snapshot.accounts.find((account) => account.id === master.id);
  if (!savedMaster) {
    throw new SandboxDataError(
      `SANDBOX_DATA_FILE: ${file} holds another sandbox account's data (set the SANDBOX_API_KEY and SANDBOX_API_SECRET it was written with, or move the file away)`,
    );
  }
  for (const collection of [state.accounts, state.accountsByKey, state.users, state.usersByEmail, state.meetings, state.instancesByUuid])
    collection.clear();
  for (const account of snapshot.accounts) state.addAccount(account.id === master.id ? Object.assign(master, savedMaster) : account);
  for (const user of snapshot.users) state.addUser(user);
  for (const meeting of snapshot.meetings) {
    // JSON wrote the live instance twice (it is also the last of `instances`): one object again.
    meeting.live = meeting.live ? (meeting.instances.find((i) => i.uuid === meeting.live!.uuid) ?? null) : null;
    state.meetings.set(meeting.id, meeting);
    for (const instance of meeting.instances) state.instancesByUuid.set(instance.uuid, { meeting, instance });
  }
  refill(state.groups, snapshot.groups);
  refill(state.imGroups, snapshot.imGroups);
  refill(state.chatSessions, snapshot.chatSessions);
  refill(state.zoomRooms, snapshot.zoomRooms);
  state.crcUsage.splice(0, Infinity, ...snapshot.crcUsage);
  state.imActivity.splice(0, Infinity, ...snapshot.imActivity);
  // Each start makes the master's app afresh (the banner's): an earlier start's, kept in the file,
  // is not brought back, or every restart would add one more app to the account.
  const earlierStartApp = (app: OAuthApp) => app.accountId === master.id && app.name === START_APP_NAME;
  for (const app of snapshot.oauthApps)
    if (state.oauthApps.accountOf(app.clientId) === undefined && !earlierStartApp(app)) state.oauthApps.add(app);
  for (const app of snapshot.sdkApps ?? []) if (state.accounts.has(app.accountId)) state.sdkApps.restore(app);
}

function refill<T>(map: Map<string, T>, entries: readonly [string, T][]): void {
  map.clear();
  for (const [key, value] of entries) map.set(key, value);
}

function writeWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const next = `${file}.next`;
  const fd = openSync(next, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(next, file);
}
