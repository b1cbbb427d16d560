import { defineEndpoint } from '../kit/define.js';
import { OWN_SESSION_CALLS, readOwnSession } from '../sessions/host-check.js';
import { WEBINAR } from '../sessions/kinds.js';
import { sessionRefShape } from '../sessions/params.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { WEBINAR_REPORTS, reportAt, unknownInstance } from './instances.js';

/**
 * /webinar/polls and /webinar/questions → the v2 poll and Q&A reports of one ended instance (the
 * latest when `uuid` is omitted), read alongside the host check. The report names its webinar, so a
 * uuid of another webinar is caught without another call.
 */
function surveyEndpoint(path: string, report: 'polls' | 'qa') {
  return defineEndpoint({
    path,
    params: v1Params({ ...sessionRefShape, uuid: v1.id().optional() }),
    v2Calls: [...OWN_SESSION_CALLS(WEBINAR), WEBINAR_REPORTS[report]],
    async handle({ id, host_id, uuid }, ctx) {
      const [session, survey] = await readOwnSession(ctx, WEBINAR, id, host_id, () =>
        ctx.v2.get(reportAt(WEBINAR_REPORTS[report], id, uuid)),
      );
      if (uuid !== undefined && survey.id !== session.id) throw unknownInstance(id, uuid);
      return {
        id: String(survey.id),
        uuid: survey.uuid,
        start_time: survey.start_time,
        questions: survey.questions.map((q) => ({
          name: q.name,
          email: q.email,
          question_details: q.question_details.map((d) => ({ question: d.question, answer: d.answer })),
        })),
      };
    },
  });
}

export const webinarPolls = surveyEndpoint('/webinar/polls', 'polls');
export const webinarQuestions = surveyEndpoint('/webinar/questions', 'qa');
