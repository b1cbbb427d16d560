import type { FailureKind } from './errors.js';

/** One row of the error texts (mappings/error-texts.ts): a v1 error text and the source of its wording. */
export interface ErrorText {
  /** The failure kinds that answer with this text (their rows in `FAILURES`). */
  kinds: readonly FailureKind[];
  /** The v1 code, or `kept` where the text tells of another failure and answers with that failure's code. */
  code: number | 'kept';
  /** The text; `<name>` stands for a value the call named or a reason v1gate states. */
  text: string;
  /** Who writes it, and when. */
  where: string;
  /** Where the wording comes from: a public source, or the stated reason for ours. */
  source: string;
  /**
   * Why test/gateway/error-texts.test.ts cannot bring this answer about, ending with the test that
   * does (`: test/...ts`): that file must exist and name this row's id.
   */
  notDrivenHere?: string;
}

/** Sources more than one row cites. */
export const V1_ERROR_TABLES = 'the v1-era error tables mirrored at https://github.com/harrisyang/api (`errors/*.md`)';
export const MOODLE =
  "moodle-mod_zoom's v1-era `locallib.php` (https://github.com/ncstate-delta/moodle-mod_zoom, before v2: `zoom_is_meeting_gone_error` tests `strpos($error, 'not found')`, `zoom_is_user_not_found_error` tests `strpos($error, 'User not exist')`)";
