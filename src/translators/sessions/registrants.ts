import { V2 } from '../../v2-contract/v2-routes.js';
import type { TranslatorContext } from '../kit/define.js';
import { everyPage, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { v1PageOfTokens, type V1PageOfTokens } from '../kit/token-walk.js';
import type { Paging } from '../../v1/paging.js';
import { type V2Registrant, type V2RegistrantPage } from '../kit/v2-answers/registration.js';

export type { V2Registrant, V2RegistrantPage } from '../kit/v2-answers/registration.js';

export type RegistrantStatus = 'pending' | 'approved' | 'denied';

/** v1's page of the registrants of one status, by the token chain (kit/token-walk.ts). */
export function registrantPage(
  ctx: TranslatorContext<typeof V2.webinars.registrants>,
  webinarId: string,
  status: RegistrantStatus,
  paging: Paging,
): Promise<V1PageOfTokens<V2Registrant>> {
  const list = {
    target: V2.webinars.registrants.at(webinarId),
    query: { status },
    itemsOf: (p: V2RegistrantPage) => p.registrants,
  };
  return v1PageOfTokens(ctx, list, paging);
}

/** Every registrant of one status, page after page. */
export async function allRegistrants(
  ctx: TranslatorContext<typeof V2.webinars.registrants>,
  webinarId: string,
  status: RegistrantStatus,
  occurrenceId?: string,
): Promise<V2Registrant[]> {
  const pages = await everyPage((token) =>
    ctx.v2.get(V2.webinars.registrants.at(webinarId), {
      status,
      page_size: V2_MAX_PAGE_SIZE,
      ...(occurrenceId ? { occurrence_id: occurrenceId } : {}),
      ...token,
    }),
  );
  return pages.flatMap((p) => p.registrants);
}

/**
 * Every registrant of the given statuses, in registration order (oldest first). create_time has
 * whole seconds; within one second the sort is stable: v2's own order within a status, then the
 * statuses in the order asked.
 */
export async function registrantsWithStatus(
  ctx: TranslatorContext<typeof V2.webinars.registrants>,
  webinarId: string,
  statuses: readonly RegistrantStatus[],
  occurrenceId?: string,
): Promise<V2Registrant[]> {
  const lists = await Promise.all(statuses.map((status) => allRegistrants(ctx, webinarId, status, occurrenceId)));
  return lists.flat().sort((a, b) => a.create_time.localeCompare(b.create_time));
}
