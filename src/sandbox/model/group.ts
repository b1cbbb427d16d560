/**
 * Groups and IM groups. Field names are the v2 ones.
 * Owned by the groups area (src/sandbox/groups/).
 */

export interface Group {
  id: string;
  account_id: string;
  name: string;
  /** Member user ids, in the order they were added. */
  member_ids: string[];
}

export type ImGroupType = 'normal' | 'shared' | 'restricted';

export interface ImGroup {
  id: string;
  account_id: string;
  name: string;
  type: ImGroupType;
  search_by_domain: boolean;
  search_by_account: boolean;
  search_by_ma_account: boolean;
  member_ids: string[];
  created_at: string;
  last_modified_time: string;
}
