import { isoSeconds, systemClock, type Clock } from './clock.js';
import { notFound, userNotFound, V2Code } from './errors.js';
import type { Account } from './model/account.js';
import type { ChatSession } from './model/chat.js';
import type { CrcHourUsage, ImDayActivity, ZoomRoom } from './model/dashboard.js';
import type { Group, ImGroup } from './model/group.js';
import type { Instance, Meeting, MeetingKind } from './model/meeting.js';
import type { User } from './model/user.js';
import { SandboxEventBus } from './events.js';
import { OAuthApps } from './oauth/apps.js';
import { SdkApps } from './sdk/apps.js';
import { NextPageTokens } from './paging.js';

/**
 * The sandbox's whole world, in memory. Every area reads and writes these collections, so the
 * answers of one endpoint stay consistent with the others (a deleted user's meetings vanish, a
 * group's members list the user's group_ids, ...).
 */
export class SandboxState {
  readonly accounts = new Map<string, Account>();
  readonly accountsByKey = new Map<string, Account>();
  readonly users = new Map<string, User>();
  /** Lower-cased email → user; emails are unique across the whole service. */
  readonly usersByEmail = new Map<string, User>();
  /** Meetings and webinars by number. */
  readonly meetings = new Map<number, Meeting>();
  /** Every instance (past or live) by its uuid, with its meeting. */
  readonly instancesByUuid = new Map<string, { meeting: Meeting; instance: Instance }>();
  readonly groups = new Map<string, Group>();
  readonly imGroups = new Map<string, ImGroup>();
  /** Instant-messaging chat sessions by id (made through the control API). */
  readonly chatSessions = new Map<string, ChatSession>();
  /** Zoom Rooms by id (made through the control API: only a real room could register one). */
  readonly zoomRooms = new Map<string, ZoomRoom>();
  /** Cloud room connector port usage, one entry per account and hour (control API). */
  readonly crcUsage: CrcHourUsage[] = [];
  /** Instant-messaging counts, one entry per user and day (control API); a removed user's stop counting. */
  readonly imActivity: ImDayActivity[] = [];

  /** Server-to-server OAuth apps and the access tokens they were given (oauth/). */
  readonly oauthApps = new OAuthApps();

  /** Meeting SDK apps, one per account that asked for one (sdk/). */
  readonly sdkApps = new SdkApps();

  /** The next-page tokens every list hands out, and how lists page (paging.ts). */
  readonly pages: NextPageTokens;

  /** v2 event subscriptions; the lifecycle (report/lifecycle.ts) emits to them. */
  readonly events: SandboxEventBus;

  constructor(readonly clock: Clock = systemClock) {
    this.events = new SandboxEventBus(() => this.clock.now());
    this.pages = new NextPageTokens(clock);
  }

  now(): Date {
    return this.clock.now();
  }

  /** Now as the service prints it: `2012-11-25T12:00:00Z`. */
  nowIso(): string {
    return isoSeconds(this.clock.now());
  }

  addAccount(account: Account): void {
    this.accounts.set(account.id, account);
    this.accountsByKey.set(account.apiKey, account);
  }

  addUser(user: User): void {
    this.users.set(user.id, user);
    this.usersByEmail.set(user.email.toLowerCase(), user);
  }

  removeUser(user: User): void {
    this.users.delete(user.id);
    this.usersByEmail.delete(user.email.toLowerCase());
  }

  /**
   * Resolve a `{userId}` path value for `account`: the user id, the email, or `me` (the account
   * owner). Users of other accounts are invisible (404 1001), as they are to the real service.
   */
  findUser(account: Account, ref: string): User | undefined {
    const user = ref === 'me' ? this.users.get(account.ownerId) : (this.users.get(ref) ?? this.usersByEmail.get(ref.toLowerCase()));
    return user && user.account_id === account.id ? user : undefined;
  }

  requireUser(account: Account, ref: string): User {
    const user = this.findUser(account, ref);
    if (!user) throw userNotFound(ref);
    return user;
  }

  /** A meeting or webinar of `account` by number (path values arrive as strings). */
  findMeeting(account: Account, id: string | number, kind: MeetingKind): Meeting | undefined {
    const number = typeof id === 'number' ? id : /^\d{1,16}$/.test(id) ? Number(id) : NaN;
    const meeting = this.meetings.get(number);
    return meeting && meeting.kind === kind && meeting.account_id === account.id ? meeting : undefined;
  }

  requireMeeting(account: Account, id: string | number, kind: MeetingKind): Meeting {
    const meeting = this.findMeeting(account, id, kind);
    if (!meeting) {
      throw kind === 'meeting'
        ? notFound(V2Code.meetingNotFound, `Meeting does not exist: ${id}.`)
        : notFound(V2Code.webinarNotFound, `Webinar does not exist: ${id}.`);
    }
    return meeting;
  }

  /** Group and IM group ids the user belongs to (for the user answers' `group_ids`, `im_group_ids`). */
  groupIdsOf(user: User): { group_ids: string[]; im_group_ids: string[] } {
    const group_ids = [...this.groups.values()].filter((g) => g.member_ids.includes(user.id)).map((g) => g.id);
    const im_group_ids = [...this.imGroups.values()].filter((g) => g.member_ids.includes(user.id)).map((g) => g.id);
    return { group_ids, im_group_ids };
  }

  /** Sub accounts of a master account that are still associated with it, oldest first. */
  subAccountsOf(master: Account): Account[] {
    return [...this.accounts.values()].filter((a) => a.masterAccountId === master.id && !a.disassociated);
  }
}
