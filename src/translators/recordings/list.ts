import {
  MC_RECORDING_FILE_ROWS,
  RECORDING_FILE_ROWS,
  RECORDING_MEETING_ANSWER,
  RECORDING_MEETING_ROWS,
} from '../../../mappings/recordings.js';
import { answer } from '../../v1/answer.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint, type RecordingFileRef, type TranslatorContext } from '../kit/define.js';
import { toV1, type FieldTable } from '../../v1/field-map.js';
import { itemsOnPage, pageOf, pagingOf, v1PageFields, v1PagingParams } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { tokenPagesUpTo, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { instantOf, utcDate, v1TimeParam, type V1Time } from './v1-time.js';
import { type V2RecordingMeeting } from '../kit/v2-answers/recordings.js';

/** With no `from`, v1 listed every recording of the host: ask v2 from before the service recorded anything. */
const EARLIEST_DATE = '2010-01-01';

export type { V2RecordingMeeting } from '../kit/v2-answers/recordings.js';

/**
 * Read v2's token pages (300 at a time) until `enough` items are in hand or the list ends. v1
 * pages by number, v2 by token: page n of v1 needs the v2 items before it.
 */
async function readRecordings(
  ctx: TranslatorContext<typeof V2.users.recordings>,
  hostId: string,
  query: { from: string; to: string; mc?: string },
  enough: number,
) {
  const { items, last } = await tokenPagesUpTo(
    (token) => ctx.v2.get(V2.users.recordings.at(hostId), { ...query, page_size: V2_MAX_PAGE_SIZE, ...token }),
    (page) => page.meetings,
    enough,
  );
  return { meetings: items, total: last.total_records };
}

/**
 * /recording/list (and /mc/recording/list) → GET /users/{host}/recordings (v2 wants a UTC date range) and GET /users/{host}
 * (its timezone: v1 reads `from`/`to` in it and answers it as each meeting's `timezone`), in
 * parallel. v1's precise `from`/`to` and `meeting_number` filters are applied to v2's items,
 * which were asked for a day wider on each side so no timezone can push a meeting out.
 */
function recordingListOf({ path, mc, fileRows }: { path: string; mc: boolean; fileRows: FieldTable }) {
  return defineEndpoint({
    path,
    params: v1Params({
      host_id: v1.id(),
      meeting_number: v1.id().optional(),
      from: v1TimeParam().optional(),
      to: v1TimeParam().optional(),
      ...v1PagingParams,
    }),
    v2Calls: [V2.users.recordings, V2.users.get],
    tables: [RECORDING_MEETING_ROWS, fileRows],
    async handle(params, ctx) {
      const paging = pagingOf(params);
      const filtered = params.meeting_number !== undefined || params.from !== undefined || params.to !== undefined;
      const range = {
        from: params.from ? utcDate(roughInstant(params.from), -1) : EARLIEST_DATE,
        to: params.to ? utcDate(roughInstant(params.to), 1) : utcDate(Date.parse(ctx.nowIso())),
      };
      const [host, listed] = await Promise.all([
        ctx.v2.get(V2.users.get.at(params.host_id)),
        readRecordings(
          ctx,
          params.host_id,
          mc ? { ...range, mc: 'true' } : range,
          filtered ? Infinity : paging.page_number * paging.page_size,
        ),
      ]);
      const timezone = host.timezone ?? '';
      let meetings = listed.meetings;
      let total = listed.total;
      if (filtered) {
        const from = params.from ? instantOf(params.from, timezone) : -Infinity;
        const to = params.to ? instantOf(params.to, timezone, true) : Infinity;
        meetings = meetings.filter((m) => {
          const start = Date.parse(m.start_time);
          return start >= from && start <= to && (params.meeting_number === undefined || String(m.id) === params.meeting_number);
        });
        total = meetings.length;
      }
      return {
        ...v1PageFields(pageOf(paging, total)),
        meetings: itemsOnPage(meetings, paging).map((m) => v1RecordingMeeting(m, timezone, ctx.downloadUrl, fileRows)),
      };
    },
  });
}

export const recordingList = recordingListOf({ path: '/recording/list', mc: false, fileRows: RECORDING_FILE_ROWS });

/**
 * /mc/recording/list: the same list of the recordings a meeting connector (on the account's own
 * premises) made, v2's `mc=true`. Its files carry no `status`, as the reference shows: a
 * connector's recording is complete when the service learns of it.
 */
export const mcRecordingList = recordingListOf({ path: '/mc/recording/list', mc: true, fileRows: MC_RECORDING_FILE_ROWS });

/** A v1 time as an instant read as GMT: close enough (within a day) to choose v2's date range. */
const roughInstant = (time: V1Time) => instantOf(time, '');

/**
 * A v2 recorded meeting as v1 printed it, `timezone` (the host's) in its place, its files per
 * `fileRows`, each `download_url` made a link v1gate serves (`link`): v2's own needs a bearer token,
 * which a v1 client, downloading with a plain GET, does not send.
 */
export function v1RecordingMeeting(
  meeting: V2RecordingMeeting,
  timezone: string,
  link: (file: RecordingFileRef) => string,
  fileRows: FieldTable = RECORDING_FILE_ROWS,
) {
  return answer(RECORDING_MEETING_ANSWER, toV1(RECORDING_MEETING_ROWS, meeting), {
    timezone,
    recording_files: meeting.recording_files.map((file) => toV1(fileRows, withDownloadLink(file, meeting, link))),
  });
}

/**
 * The file with its `download_url` (when v2 gave one: a file still processing has none) replaced by
 * v1gate's link, which names the file (its meeting's uuid and its id) rather than v2's URL.
 */
function withDownloadLink(
  file: Record<string, unknown>,
  meeting: V2RecordingMeeting,
  link: (file: RecordingFileRef) => string,
): Record<string, unknown> {
  const url = file['download_url'];
  const fileId = file['id'];
  // The instance's uuid, which each file repeats as its meeting_id.
  const meetingUuid = [(meeting as Record<string, unknown>)['uuid'], file['meeting_id']].find((u) => typeof u === 'string' && u !== '');
  if (typeof meetingUuid !== 'string') return file;
  if (typeof url !== 'string' || url === '' || typeof fileId !== 'string' || fileId === '') return file;
  return { ...file, download_url: link({ meetingUuid, fileId, v2Url: url }) };
}
