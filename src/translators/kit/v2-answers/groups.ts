import { z } from 'zod';
import { V2_NUMBERED_PAGE } from '../v2-paging.js';
import { looseFields, OBJECT_READ_BY_KEY } from '../answer-shape.js';

/**
 * The v2 group and IM group answers (the same family at two collections). A group is read through
 * the kind's table by name; its id is what the translators name it by.
 */

/** GET /groups/{groupId}, GET /im/groups/{groupId}, and the 201 of POST /groups and /im/groups. */
export const V2_GROUP = looseFields({ id: z.string() });

const GROUP_ITEMS = z.array(OBJECT_READ_BY_KEY);

/** GET /groups: every group at once. */
export const V2_GROUP_LIST = looseFields({ total_records: z.number(), groups: GROUP_ITEMS });

/** GET /im/groups: paged by number. */
export const V2_GROUP_PAGE = looseFields({ ...V2_NUMBERED_PAGE, groups: GROUP_ITEMS });

/** GET /groups/{groupId}/members (and the IM group's): members are read through the member table; the id is compared. */
export const V2_MEMBER_PAGE = looseFields({ ...V2_NUMBERED_PAGE, members: z.array(looseFields({ id: z.string() })) });

/** POST /groups/{groupId}/members: the ids added, comma-separated. */
export const V2_MEMBERS_ADDED = looseFields({ ids: z.string() });
