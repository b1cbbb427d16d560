import { QOS_ANSWER, QOS_PARTICIPANT_ROWS, QOS_SAMPLE_ROWS } from '../../../mappings/metrics.js';
import { answer } from '../../v1/answer.js';
import { V1Code } from '../../v1/errors.js';
import { V1Error } from '../../v1/errors.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import { defineEndpoint } from '../kit/define.js';
import { toV1 } from '../../v1/field-map.js';
import { itemsOnPage, pagingOf } from '../../v1/paging.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { uuidSegment } from '../kit/instance-uuid.js';

/**
 * /metrics/qos → GET /metrics/meetings/{meetingId}/participants/{participantId}/qos for the
 * `user_id` given, else the first participant of GET .../participants/qos (v1 answered one user
 * when none was named). Today's v2 carries a participant's samples as a series (`user_qos`, an
 * array), the old reference one sample (an object): v1's `user_qos` list holds the samples either
 * way, in v2's order; `page_size` (at most 10) and `page_number` page that list, as v1 paged the
 * samples.
 */

const V2_TYPES = ['live', 'past'] as const;
const TYPE_LABELS = ['Live Meeting', 'Past Meeting'] as const;

export const metricsQos = defineEndpoint({
  path: '/metrics/qos',
  params: v1Params({
    meeting_id: v1.id(),
    type: v1.int({ min: 1, max: 2 }),
    user_id: v1.id().optional(),
    page_size: v1.int({ min: 1, max: 10 }).optional(),
    page_number: v1.int({ min: 1 }).optional(),
  }),
  v2Calls: [V2.metrics.participantQos, V2.metrics.meetingQos],
  tables: [QOS_PARTICIPANT_ROWS, QOS_SAMPLE_ROWS],
  async handle(params, ctx) {
    const type = V2_TYPES[params.type - 1]!;
    const meeting = uuidSegment(params.meeting_id);
    const participant = params.user_id
      ? await ctx.v2.get(V2.metrics.participantQos.at(meeting, params.user_id), { type })
      : (await ctx.v2.get(V2.metrics.meetingQos.at(meeting), { type, page_size: 1 })).participants[0];
    // A session nobody is in has no QoS to show: v1 said so with "meeting not found" for it too.
    if (!participant) throw new V1Error(V1Code.meetingNotFound, `No participant of meeting ${params.meeting_id} has QoS data.`);
    const samples = samplesOf(participant.user_qos);
    return answer(QOS_ANSWER, toV1(QOS_PARTICIPANT_ROWS, participant), {
      meeting_id: params.meeting_id,
      type: TYPE_LABELS[params.type - 1],
      user_qos: itemsOnPage(samples, pagingOf({ page_size: params.page_size ?? 10, page_number: params.page_number })).map((s) =>
        toV1(QOS_SAMPLE_ROWS, s),
      ),
    });
  },
});

/** The samples v2 gave, as a series: one sample of the old shape, or today's array; a sample without its time is none. */
function samplesOf(userQos: Record<string, unknown> | readonly Record<string, unknown>[] | undefined): Record<string, unknown>[] {
  // concat takes one sample or a series alike.
  const samples = userQos === undefined ? [] : ([] as Record<string, unknown>[]).concat(userQos);
  return samples.filter((sample) => Boolean(sample.date_time));
}
