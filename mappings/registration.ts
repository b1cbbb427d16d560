import { z } from 'zod';
import { droppedField, enumCodec, fieldTable, type Codec, type FieldTable } from '../src/v1/field-map.js';
import { v1 } from '../src/v1/param-types.js';

/**
 * Registration: where each field of a v1 registration (/meeting/register, /webinar/register) lives
 * in the v2 registrant object (POST /{meetings|webinars}/{id}/registrants, and the listed registrants
 * of GET .../registrants), and how v1's registrant lists read v2's. Read in both directions and
 * rendered into docs/coverage.md (docs/decisions.md, "Registration and webinar reports").
 */

export const PURCHASING_TIME_FRAMES = ['Within a month', '1-3 months', '4-6 months', 'More than 6 months', 'No timeframe'] as const;
export const ROLES_IN_PURCHASE_PROCESS = ['Decision Maker', 'Evaluator/Recommender', 'Influencer', 'Not involved'] as const;
export const V1_NO_OF_EMPLOYEES = [
  '1-20',
  '21-50',
  '51-100',
  '101-250',
  '251-500',
  '501-1,000',
  '1,001-5,000',
  '5,001-10,000',
  'More than 10,000',
] as const;

type V1Employees = (typeof V1_NO_OF_EMPLOYEES)[number];

/**
 * v1 and v2 cut company sizes differently: v1's 101-250 and 251-500 both fall in v2's 101-500, and
 * v1's 501-1,000 is v2's 500-1,000. v1 → v2 is exact; v2 → v1 cannot tell 101-250 from 251-500
 * and answers 101-250, the bracket whose lower bound (the one fact v2 keeps: at least 101) it shares,
 * so a v1 reader never sees a company larger than it said it was.
 */
export const NO_OF_EMPLOYEES_TO_V2: Readonly<Record<V1Employees, string>> = {
  '1-20': '1-20',
  '21-50': '21-50',
  '51-100': '51-100',
  '101-250': '101-500',
  '251-500': '101-500',
  '501-1,000': '500-1,000',
  '1,001-5,000': '1,001-5,000',
  '5,001-10,000': '5,001-10,000',
  'More than 10,000': 'More than 10,000',
};

/** The v1 value a v2 value reads back as: the first v1 bracket that maps to it (101-500 → 101-250). */
const NO_OF_EMPLOYEES_TO_V1: ReadonlyMap<string, V1Employees> = new Map(
  V1_NO_OF_EMPLOYEES.map((v1Value) => [NO_OF_EMPLOYEES_TO_V2[v1Value], v1Value] as const).reverse(),
);

/** The v1 values that do not survive a round trip (v2 has one bracket for two of them). */
export const LOSSY_NO_OF_EMPLOYEES: readonly V1Employees[] = ['251-500'];

export const noOfEmployeesCodec: Codec<V1Employees, string> = {
  name: 'v1 101-250 and 251-500 → v2 101-500 (read back as 101-250); 501-1,000 ↔ 500-1,000; the rest unchanged',
  toV2: (value) => NO_OF_EMPLOYEES_TO_V2[value],
  toV1: (value) => {
    const found = NO_OF_EMPLOYEES_TO_V1.get(value);
    if (found === undefined) throw new Error(`No v1 value for v2 no_of_employees ${value}`);
    return found;
  },
};

/** One custom question, as v1 sent them in a JSON text and v2 takes them (a value may come as a number). */
const customQuestion = z.object({
  title: z.string({ error: 'Each custom question needs a title (text).' }).min(1, 'Each custom question needs a title.'),
  value: z.union([z.string(), z.number(), z.boolean()], { error: 'Each custom question needs a value (text).' }).transform(String),
});

export const customQuestionsParam = () =>
  v1.json(z.array(customQuestion, { error: 'Must be a JSON array of {"title", "value"} objects.' }));

/**
 * The standard answers of a registration form (everything but the identity and the custom
 * questions): what v1's attendee report answered as the `questions` map.
 */
export const STANDARD_QUESTION_ROWS: FieldTable = [
  { v1: 'address', v2: 'address', type: v1.string() },
  { v1: 'city', v2: 'city', type: v1.string() },
  { v1: 'country', v2: 'country', type: v1.string(), note: 'v1 sent the id of its country list; passed on as given.' },
  { v1: 'zip', v2: 'zip', type: v1.string() },
  { v1: 'state', v2: 'state', type: v1.string() },
  { v1: 'phone', v2: 'phone', type: v1.string() },
  { v1: 'industry', v2: 'industry', type: v1.string() },
  { v1: 'org', v2: 'org', type: v1.string() },
  { v1: 'job_title', v2: 'job_title', type: v1.string() },
  { v1: 'purchasing_time_frame', v2: 'purchasing_time_frame', type: v1.oneOf(PURCHASING_TIME_FRAMES) },
  { v1: 'role_in_purchase_process', v2: 'role_in_purchase_process', type: v1.oneOf(ROLES_IN_PURCHASE_PROCESS) },
  {
    v1: 'no_of_employees',
    v2: 'no_of_employees',
    type: v1.oneOf(V1_NO_OF_EMPLOYEES),
    codec: noOfEmployeesCodec,
    note: "v1's 101-250 and 251-500 are both v2 101-500 (read back as 101-250); 501-1,000 is v2 500-1,000. The other brackets are the same.",
  },
  { v1: 'comments', v2: 'comments', type: v1.string() },
];

/** A v1 registration ↔ the v2 registrant. email, first_name and last_name are required by both versions. */
export const REGISTRANT_FIELDS: FieldTable = [
  { v1: 'email', v2: 'email', type: v1.email() },
  { v1: 'first_name', v2: 'first_name', type: v1.string({ max: 64 }) },
  { v1: 'last_name', v2: 'last_name', type: v1.string({ max: 64 }) },
  ...STANDARD_QUESTION_ROWS,
  {
    v1: 'custom_questions',
    v2: 'custom_questions',
    type: customQuestionsParam(),
    note: 'A JSON text in v1 ([{"title","value"}]), the same array as JSON in v2. v1 attendee reports show it as a map title → value.',
  },
  droppedField({
    v1: 'language',
    type: v1.oneOf(['en-US', 'en', 'zh-CN', 'zh', 'en-ES', 'es', 'fr-FR', 'fr']),
    note:
      'The language of the confirmation email. A v2 registrant has no language (the service writes in the account language): ' +
      "accepted (a value outside v1's list is a 300) and dropped — not made a custom question, which would show in the host's reports as an answer the registrant never gave.",
  }),
];

/** v1 /webinar/registrants/list `type` (0 pending approval, the v1 default; 1 approved) ↔ the v2 list's `status` query. */
export const REGISTRANT_LIST_QUERY = fieldTable([
  {
    v1: 'type',
    v2: 'status',
    type: v1.intOneOf([0, 1]),
    codec: enumCodec([
      [0, 'pending'],
      [1, 'approved'],
    ]),
    v1Default: 0,
    note: "0 (pending approval, v1's default) is v2 status `pending`; 1 (approved) is `approved`. v2's `denied` has no v1 type.",
  },
]);

/** An item of v1 /webinar/registrants/list `users` ← a v2 listed registrant. */
export const REGISTRANT_LIST_USER: FieldTable = [
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'first_name', v2: 'first_name', direction: 'out' },
  { v1: 'last_name', v2: 'last_name', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'registration_time', v2: 'create_time', direction: 'out' },
];

/**
 * An item of v1 /webinar/registration `attendees` ← a v2 listed registrant. `approval` is the
 * registration's status word, which v1 and v2 share (`approved`, `pending`, `denied`; the v1
 * example answers `approved`); `registration_url` is the registrant's own link to the webinar (the
 * v1 example's `/w/{id}?tk=...` url), v2's `join_url`.
 */
export const REGISTRATION_ATTENDEE: FieldTable = [
  { v1: 'id', v2: 'id', direction: 'out' },
  { v1: 'first_name', v2: 'first_name', direction: 'out' },
  { v1: 'last_name', v2: 'last_name', direction: 'out' },
  { v1: 'create_time', v2: 'create_time', direction: 'out' },
  { v1: 'approval', v2: 'status', direction: 'out', note: 'The v2 status word as it is: approved, pending or denied.' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'registration_url', v2: 'join_url', direction: 'out', note: "The registrant's own join link (v1's example is such a link)." },
];

/** An item of v1 /webinar/panelists `panelists` ← a v2 panelist (v2's `id` has no v1 field). */
export const PANELIST: FieldTable = [
  { v1: 'name', v2: 'name', direction: 'out' },
  { v1: 'email', v2: 'email', direction: 'out' },
  { v1: 'join_url', v2: 'join_url', direction: 'out' },
];
