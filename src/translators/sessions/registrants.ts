import { V2 } from '../../shared/v2-routes.js';
import type { TranslatorContext } from '../kit/define.js';
import { everyNumberedPage, V2_MAX_PAGE_SIZE } from '../kit/v2-paging.js';
import { V2_REGISTRANT_PAGE, type V2Registrant, type V2RegistrantPage } from './v2-registration.js';

export type { V2Registrant, V2RegistrantPage } from './v2-registration.js';

export type RegistrantStatus = 'pending' | 'approved' | 'denied';

/** One v2 page of registrants of one status. */
export function registrantPage(
  ctx: TranslatorContext,
  webinarId: string,
  query: { status: RegistrantStatus; page_size: number; page_number: number; occurrence_id?: string | undefined },
): Promise<V2RegistrantPage> {
  return ctx.v2.get(V2.webinars.registrants.at(webinarId), V2_REGISTRANT_PAGE, query);
}

/** Every registrant of one status: the first page, then the others in parallel. */
export async function allRegistrants(
  ctx: TranslatorContext,
  webinarId: string,
  status: RegistrantStatus,
  occurrenceId?: string,
): Promise<V2Registrant[]> {
  const pages = await everyNumberedPage((page_number) =>
    registrantPage(ctx, webinarId, { status, page_size: V2_MAX_PAGE_SIZE, page_number, occurrence_id: occurrenceId }),
  );
  return pages.flatMap((p) => p.registrants);
}

/**
 * Every registrant of the given statuses, in registration order (oldest first). create_time has
 * whole seconds; within one second the sort is stable: v2's own order within a status, then the
 * statuses in the order asked.
 */
export async function registrantsWithStatus(
  ctx: TranslatorContext,
  webinarId: string,
  statuses: readonly RegistrantStatus[],
  occurrenceId?: string,
): Promise<V2Registrant[]> {
  const lists = await Promise.all(statuses.map((status) => allRegistrants(ctx, webinarId, status, occurrenceId)));
  return lists.flat().sort((a, b) => a.create_time.localeCompare(b.create_time));
}
