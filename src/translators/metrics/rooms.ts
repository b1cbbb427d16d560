import {
  NO_LIVE_MEETING,
  ZOOM_ROOM_ANSWER,
  ZOOM_ROOM_MESSAGE_ROWS,
  ZOOM_ROOM_MESSAGES_ANSWER,
  ZOOM_ROOM_ROWS,
} from '../../../mappings/dashboards.js';
import { answer } from '../../v1/answer.js';
import { SESSION_METRIC_ANSWER, SESSION_METRIC_ROWS, STILL_GOING } from '../../../mappings/metrics.js';
import { invalidParameter } from '../../v1/errors.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { itemsOnPage, pageOf, pagingOf, v1PageFields } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { morePagesNeeded, tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { isBackwards, reportDateParam, v2Date } from '../kit/report-date.js';
import { type V2RoomDetail } from '../kit/v2-answers/metrics.js';

/**
 * /metrics/zoomrooms → GET /metrics/zoomrooms (both page by number, v1 up to 30 a page) and
 * /metrics/zoomroomdetail → GET /metrics/zoomrooms/{zoomroomId}: the room, its live meeting and
 * its past meetings between `from` and `to` (v2 pages those by token; v1 by number).
 */

type V2Room = Record<string, unknown>;

const v1Room = (room: V2Room, meetingId = '') =>
  answer(ZOOM_ROOM_ANSWER, toV1(ZOOM_ROOM_ROWS, room), {
    meeting_id: meetingId,
    messages: answer(ZOOM_ROOM_MESSAGES_ANSWER, toV1(ZOOM_ROOM_MESSAGE_ROWS, room)),
  });

const v1PageSize = { page_size: v1.int({ min: 1, max: 30 }).optional(), page_number: v1.int({ min: 1 }).optional() };

export const metricsZoomRooms = defineEndpoint({
  path: '/metrics/zoomrooms',
  params: v1Params(v1PageSize),
  v2Calls: [V2.metrics.zoomRooms],
  tables: [ZOOM_ROOM_ROWS, ZOOM_ROOM_MESSAGE_ROWS],
  async handle(params, ctx) {
    const paging = pagingOf(params);
    const page = await ctx.v2.get(V2.metrics.zoomRooms.at(), paging);
    return { ...v1PageFields(pageOf(paging, page.total_records)), zoom_rooms: page.zoom_rooms.map((room) => v1Room(room)) };
  },
});

export const metricsZoomRoomDetail = defineEndpoint({
  path: '/metrics/zoomroomdetail',
  params: v1Params({ id: v1.id(), from: reportDateParam(), to: reportDateParam(), ...v1PageSize }),
  v2Calls: [V2.metrics.zoomRoom],
  tables: [ZOOM_ROOM_ROWS, ZOOM_ROOM_MESSAGE_ROWS, SESSION_METRIC_ROWS],
  async handle(params, ctx) {
    if (isBackwards(params.from, params.to)) throw invalidParameter('to', 'Must not be before from.');
    const roomAt = V2.metrics.zoomRoom.at(params.id);
    const range = { from: v2Date(params.from), to: v2Date(params.to) };
    const paging = pagingOf(params);
    const enough = paging.page_number * paging.page_size;
    let room: V2RoomDetail | undefined;
    const { items, last } = await tokenPagesUpTo(
      async (token) => {
        const answer = await ctx.v2.get(roomAt, { ...range, page_size: V2_MAX_PAGE_SIZE, ...token });
        room ??= answer;
        return answer.past_meetings;
      },
      (page) => page.meetings,
      enough,
      (first) => ctx.requireFanOut(V2.metrics.zoomRoom, morePagesNeeded(first.total_records, enough, V2_MAX_PAGE_SIZE)),
    );
    const live = room!.live_meeting
      ? answer(SESSION_METRIC_ANSWER, STILL_GOING, toV1(SESSION_METRIC_ROWS, room!.live_meeting))
      : NO_LIVE_MEETING;
    return {
      from: last.from,
      to: last.to,
      ...v1PageFields(pageOf(paging, last.total_records)),
      zoom_room: v1Room(room!, room!.live_meeting ? String(room!.live_meeting['id']) : ''),
      live_meeting: live,
      past_meetings: itemsOnPage(items, paging).map((m) => answer(SESSION_METRIC_ANSWER, toV1(SESSION_METRIC_ROWS, m))),
    };
  },
});
