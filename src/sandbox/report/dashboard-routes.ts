import { z } from 'zod';
import type { Context } from 'hono';
import type { SandboxApp, SandboxContext, SandboxEnv } from '../context.js';
import { notFound, V2Code } from '../errors.js';
import { IM_COUNTERS, type ImCounter, type ZoomRoom } from '../model/dashboard.js';
import type { Instance, Meeting } from '../model/meeting.js';
import { pageBody, paginate, tokenPageBody, tokenPagingQuery, type NextPageTokens } from '../paging.js';
import type { SandboxState } from '../state.js';
import type { User } from '../model/user.js';
import { readQuery } from '../validation.js';
import { onDateWithin, queryDate, rangeIssue } from './dates.js';
import { displayName } from './people.js';
import { renderSessionMetric } from './render.js';

/**
 * The account-wide dashboards: GET /metrics/zoomrooms (numbered pages), /metrics/zoomrooms/{id}
 * (a room with its live and past meetings), /metrics/crc and /metrics/im, over what the control
 * API seeded (src/sandbox/model/dashboard.ts).
 */

const rangeQuery = { from: queryDate, to: queryDate };
const checkRange = (q: { from: string; to: string }, ctx: z.RefinementCtx) => rangeIssue(q.from, q.to, ctx);

/** The sessions held in a room, with their meetings. */
function roomSessions(state: SandboxState, room: ZoomRoom): { meeting: Meeting; instance: Instance }[] {
  return room.meeting_ids.flatMap((id) => {
    const meeting = state.meetings.get(id);
    return meeting ? meeting.instances.map((instance) => ({ meeting, instance })) : [];
  });
}

/** The reference's `Zoom Room`: a room running a meeting is `In Meeting`, else its own status. */
function renderZoomRoom(state: SandboxState, room: ZoomRoom) {
  const sessions = roomSessions(state, room);
  const live = sessions.some((s) => s.instance.end_time === null);
  const lastStart =
    sessions
      .map((s) => s.instance.start_time)
      .sort()
      .at(-1) ?? '';
  return {
    id: room.id,
    room_name: room.room_name,
    calender_name: room.calender_name,
    email: room.email,
    account_type: room.account_type,
    status: live ? 'In Meeting' : room.status,
    device_ip: room.device_ip,
    camera: room.camera,
    microphone: room.microphone,
    speaker: room.speaker,
    last_start_time: lastStart,
  };
}

const zeroCounts = () => Object.fromEntries(IM_COUNTERS.map((k) => [k, 0])) as Record<ImCounter, number>;

export function registerDashboardRoutes(app: SandboxApp, { state }: SandboxContext, pages: NextPageTokens): void {
  const accountRooms = (accountId: string) => [...state.zoomRooms.values()].filter((r) => r.account_id === accountId);

  app.get('/metrics/zoomrooms', (c) => {
    const page = paginate(c, state.pages, `zoomrooms:${c.var.account.id}`, accountRooms(c.var.account.id));
    return c.json(pageBody({ ...page, items: page.items.map((room) => renderZoomRoom(state, room)) }, 'zoom_rooms'));
  });

  const roomQuery = z.object({ ...rangeQuery, ...tokenPagingQuery }).superRefine(checkRange);
  app.get('/metrics/zoomrooms/:zoomroomId', (c) => {
    const q = readQuery(c, roomQuery);
    const room = state.zoomRooms.get(c.req.param('zoomroomId'));
    if (!room || room.account_id !== c.var.account.id)
      throw notFound(V2Code.invalidParameter, `Invalid Zoom Room id: no Zoom Room ${c.req.param('zoomroomId')} not found.`);
    const sessions = roomSessions(state, room);
    const live = sessions.find((s) => s.instance.end_time === null);
    const past = sessions
      .filter((s) => s.instance.end_time !== null && onDateWithin(s.instance.start_time, q.from, q.to))
      .sort((a, b) => b.instance.start_time.localeCompare(a.instance.start_time));
    const page = pages.page(`zoomroom:${room.id}:${q.from}:${q.to}`, past, q);
    const meetings = page.items.map((s) => renderSessionMetric(state, s.meeting, s.instance));
    return c.json({
      ...renderZoomRoom(state, room),
      // No meeting runs in the room: the field is left out.
      ...(live ? { live_meeting: renderSessionMetric(state, live.meeting, live.instance) } : {}),
      past_meetings: { from: q.from, to: q.to, ...pageBody({ ...page, items: meetings }, 'meetings') },
    });
  });

  const crcQuery = z.object(rangeQuery).superRefine(checkRange);
  app.get('/metrics/crc', (c) => {
    const q = readQuery(c, crcQuery);
    const byDate = new Map<string, { hour: string; max_usage: number; total_usage: number }[]>();
    const hours = state.crcUsage
      .filter((u) => u.account_id === c.var.account.id && u.date >= q.from && u.date <= q.to)
      .sort((a, b) => `${a.date}T${a.hour}`.localeCompare(`${b.date}T${b.hour}`));
    for (const u of hours) {
      const day = byDate.get(u.date) ?? [];
      day.push({ hour: u.hour, max_usage: u.max_usage, total_usage: u.total_usage });
      byDate.set(u.date, day);
    }
    const usage = [...byDate].map(([date, perHour]) => ({ date_time: date, crc_ports_hour_usage: perHour }));
    return c.json({ from: q.from, to: q.to, crc_ports_usage: usage });
  });

  const imQuery = z.object({ ...rangeQuery, ...tokenPagingQuery }).superRefine(checkRange);
  /** The range asked, a page of the account's users (every one, counted over the range), and their counts. */
  const usersCounted = (c: Context<SandboxEnv>, list: string) => {
    const q = readQuery(c, imQuery);
    const account = c.var.account;
    const users = [...state.users.values()].filter((u) => u.account_id === account.id);
    const totals = imTotals(state, users, q);
    const page = pages.page(`${list}:${account.id}:${q.from}:${q.to}`, users, q);
    return { q, page, counts: (u: User) => totals.get(u.id)! };
  };
  app.get('/metrics/im', (c) => {
    const { q, page, counts } = usersCounted(c, 'metrics_im');
    const items = page.items.map((u) => ({
      user_id: u.id,
      user_name: displayName(u),
      email: u.email,
      ...counts(u),
    }));
    return c.json({ from: q.from, to: q.to, ...pageBody({ ...page, items }, 'users') });
  });

  /**
   * GET /metrics/chat, which replaced /metrics/im: what each user sent, by kind, and nothing they
   * received; paged by token only, with no total (docs/live-evidence.md, "Team Chat, chat metrics
   * and the ZPK today"). The sandbox keeps v1-era day counts (POST /sandbox/accounts/{id}/im-activity)
   * and reads today's kinds from them: a message that is no file, image, voice or video is text.
   */
  app.get('/metrics/chat', (c) => {
    const { q, page, counts } = usersCounted(c, 'metrics_chat');
    const items = page.items.map((u) => ({ user_id: u.id, user_name: displayName(u), email: u.email, ...chatSent(counts(u)) }));
    return c.json(tokenPageBody({ ...page, items }, 'users', q));
  });
}

/** Each user's day counts summed over the range (zero when they sent and got nothing). */
function imTotals(state: SandboxState, users: readonly User[], q: { from: string; to: string }): Map<string, Record<ImCounter, number>> {
  const totals = new Map(users.map((u) => [u.id, zeroCounts()]));
  for (const day of state.imActivity) {
    const sum = totals.get(day.user_id);
    if (!sum || day.date < q.from || day.date > q.to) continue;
    for (const k of IM_COUNTERS) sum[k] += day.counts[k];
  }
  return totals;
}

/** Today's sent counts of /metrics/chat, read from the v1-era counters. */
function chatSent(n: Record<ImCounter, number>) {
  const media = n.files_send + n.images_send + n.voice_send + n.videos_send;
  return {
    total_sent: n.total_send,
    group_sent: n.group_send,
    p2p_sent: Math.max(0, n.total_send - n.group_send),
    text_sent: Math.max(0, n.total_send - media),
    files_sent: n.files_send,
    images_sent: n.images_send,
    audio_sent: n.voice_send,
    video_sent: n.videos_send,
    giphys_sent: 0,
    code_sippet_sent: 0,
  };
}
