import { TOKEN_TYPES, V2_TOKEN_TYPES } from '../../../mappings/user-answers.js';
import { USER_FIELDS } from '../../../mappings/user-fields.js';
import { USER_OPTIONS, USER_OPTION_COMPOSITES, USER_RECORDING_VIEWS } from '../../../mappings/user-options.js';
import type { Query } from '../../upstream/client.js';
import { V2 } from '../../v2-contract/v2-routes.js';
import type { V2Api } from '../kit/define.js';
import { answer, type AnswerShape } from '../../v1/answer.js';
import { compositesToV1, toV1 } from '../../v1/field-map.js';
import { type V2Settings, type V2User } from '../kit/v2-answers/users.js';

/**
 * The v1 user as the v1 answers show it (mappings/user-answers.ts), assembled from the v2 user,
 * its settings and its tokens through the mapping tables; the parts to read follow from the fields
 * the answer shows.
 */

export type { V2Settings, V2User } from '../kit/v2-answers/users.js';

type Tokens = Record<(typeof TOKEN_TYPES)[number], string>;

/** The v1 fields that come from the settings (tables and composites). */
export const SETTINGS_FIELDS: ReadonlySet<string> = new Set([
  ...[...USER_OPTIONS, ...USER_RECORDING_VIEWS].map((row) => row.v1),
  ...USER_OPTION_COMPOSITES.flatMap((composite) => Object.keys(composite.fields)),
]);

export interface V2UserParts {
  user: V2User;
  settings?: V2Settings;
  tokens?: Tokens;
}

/**
 * Read what `answer` shows of the user `ref` (id or email): the user, and — only when shown — the
 * settings and the tokens v2 still issues (the ZAK), all in parallel; the retired ones are empty.
 */
/** What readUserParts may call: an endpoint that reads a v1 user declares `userReadCalls` of its answer. */
export type UserReadRoute = typeof V2.users.get | typeof V2.users.settings | typeof V2.users.token;

/** The routes readUserParts calls for `shape`: the user, and its settings and tokens when the answer shows them. */
export function userReadCalls(shape: AnswerShape): UserReadRoute[] {
  return [
    V2.users.get,
    ...(shape.fields.some((field) => SETTINGS_FIELDS.has(field)) ? [V2.users.settings] : []),
    ...(shape.fields.includes('token') ? [V2.users.token] : []),
  ];
}

export async function readUserParts(v2: V2Api<UserReadRoute>, ref: string, shape: AnswerShape, loginType?: number): Promise<V2UserParts> {
  const query: Query | undefined = loginType === undefined ? undefined : { login_type: loginType };
  const wantsSettings = shape.fields.some((field) => SETTINGS_FIELDS.has(field));
  const wantsTokens = shape.fields.includes('token');
  const [user, settings, ...tokens] = await Promise.all([
    v2.get(V2.users.get.at(ref), query),
    wantsSettings ? v2.get(V2.users.settings.at(ref), query) : undefined,
    ...V2_TOKEN_TYPES.map((type) => (wantsTokens ? v2.get(V2.users.token.at(ref), { type }).then((t) => t.token) : undefined)),
  ]);
  const issued = new Map<string, string | undefined>(V2_TOKEN_TYPES.map((type, i) => [type, tokens[i]]));
  return {
    user,
    ...(settings ? { settings } : {}),
    ...(wantsTokens ? { tokens: Object.fromEntries(TOKEN_TYPES.map((type) => [type, issued.get(type) ?? ''])) as Tokens } : {}),
  };
}

/** The v1 answer of `shape` for the parts read: each field from the table that maps it. */
export function v1UserAnswer(shape: AnswerShape, parts: V2UserParts): Record<string, unknown> {
  const { settings } = parts;
  const fromSettings = settings
    ? [toV1(USER_RECORDING_VIEWS, settings), compositesToV1(USER_OPTION_COMPOSITES, settings), toV1(USER_OPTIONS, settings)]
    : [];
  // Where two parts answer one field, the tokens win over the settings, the settings over the user object.
  return answer(shape, parts.tokens ?? {}, ...fromSettings, toV1(USER_FIELDS, parts.user));
}

/** Read and answer a user in one step (get, getbyemail, and the end of the create variants). */
export async function readV1User(
  v2: V2Api<UserReadRoute>,
  ref: string,
  shape: AnswerShape,
  loginType?: number,
): Promise<Record<string, unknown>> {
  return v1UserAnswer(shape, await readUserParts(v2, ref, shape, loginType));
}
