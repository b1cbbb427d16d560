import { z } from 'zod';
import type { ListKeep } from '../translators/kit/list-keep.js';

/**
 * The part of recipe.json a program runs: each endpoint's v2 steps with when each runs and where
 * every value of its path, query and body comes from, and the reverse map that builds the v1 answer
 * from the v2 answers. `--verify` reads recipe.json through this schema and runs nothing else, so
 * what the schema cannot say the recipe says it cannot express (`cannotExpress`).
 */

/** How a v1 form value is read before it is sent: v1 took every value as text. */
export const ValueType = z
  .enum(['string', 'number', 'boolean', 'list', 'date'])
  .describe(
    'how the v1 text is read: as sent, a number, a boolean (true/false/1/0), a list, a date (yyyy-m-d, MM/dd/yyyy or a date-time: sent as yyyy-mm-dd)',
  );

/** Where one value of a v2 request comes from. */
export const Source = z
  .discriminatedUnion('from', [
    z
      .object({
        from: z.literal('param'),
        param: z.string(),
        as: ValueType.optional(),
        default: z.string().optional().describe('the v1 text used when the parameter is not given (v1 defaults)'),
      })
      .describe('the v1 parameter of that name'),
    z.object({ from: z.literal('constant'), value: z.unknown() }).describe('the same value in every call'),
    z.object({ from: z.literal('item'), param: z.string() }).describe('the current item of a fan-out over a list parameter'),
    z
      .object({ from: z.literal('step'), step: z.number().int().min(0), field: z.string() })
      .describe("a field of an earlier step's v2 answer (step: its index in steps)"),
    z.object({ from: z.literal('paging') }).describe("the next_page_token of this step's previous page: left out on the first page"),
    z
      .object({ from: z.literal('list-item'), field: z.string() })
      .describe("a field of the current item of a fan-out over an earlier step's list"),
  ])
  .describe('where a value comes from');

/** How a value changes between v1 and v2, as data a program can apply both ways. */
export const Codec = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('same') }),
    z.object({ kind: z.literal('negated') }),
    z.object({ kind: z.literal('enum'), pairs: z.array(z.tuple([z.unknown(), z.unknown()])).describe('[v1 value, v2 value]') }),
    z
      .object({
        kind: z.literal('lookup'),
        toV2: z.array(z.tuple([z.unknown(), z.unknown()])).describe('[v1 value, v2 value]'),
        toV2Else: z.enum(['same', 'refuse']).describe('a v1 value not in toV2: sent unchanged, or refused'),
        toV1: z.array(z.tuple([z.unknown(), z.unknown()])).describe('[v2 value, v1 value]'),
        toV1Else: z
          .union([z.enum(['same', 'refuse']), z.object({ value: z.unknown() })])
          .describe('a v2 value not in toV1: answered unchanged, refused, or this value'),
      })
      .describe('a table each way, and what a value neither holds becomes'),
    z
      .object({ kind: z.literal('json-fields'), fields: z.record(z.string(), z.enum(['number', 'text', 'string'])) })
      .describe(
        'a JSON object in a form field: parsed, each named field read as v2 takes it (number: digits in a string become the number; text: a number becomes its text, spaces out; string: as it is), the rest left out',
      ),
    z.object({ kind: z.literal('code'), name: z.string() }).describe('a rule only the translator code holds: not applied by a recipe'),
  ])
  .describe('the codec of a field');

/** When a step runs. */
export const Condition = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('always'), times: z.number().int().min(1).describe('how many times in one call') }),
    z.object({ kind: z.literal('given'), param: z.string() }).describe('only when the v1 parameter is given'),
    z.object({ kind: z.literal('absent'), param: z.string() }).describe('only when the v1 parameter is not given'),
    z.object({ kind: z.literal('per-item'), param: z.string() }).describe('once per item of the v1 list parameter (a fan-out)'),
    z
      .object({ kind: z.literal('per-list-item'), step: z.number().int().min(0) })
      .describe("once per item of v1's page of the earlier list step (step: its index): each item read in full"),
    z.object({ kind: z.literal('rollback') }).describe('only when a later step fails: the undo of an earlier write'),
    z.object({ kind: z.literal('unseen'), why: z.string() }).describe('declared, never seen in the record: not run'),
    z.object({ kind: z.literal('sometimes'), why: z.string() }).describe('seen in some calls, under a condition the record does not show'),
  ])
  .describe('when a step runs');

export const BodyField = z.object({
  v2: z.string().describe('dotted path in the body'),
  v1: z.string().describe('the v1 parameter it comes from'),
  as: ValueType,
  codec: Codec,
  default: z.unknown().optional().describe('sent when a create leaves the parameter out (v1 default)'),
});

/** Which items of a list v1's list keeps (src/translators/kit/list-keep.ts: the translator reads the same rule). */
export const Keep: z.ZodType<ListKeep> = z.lazy(() =>
  z.union([
    z.object({ field: z.string(), default: z.unknown().optional(), equals: z.unknown() }).describe('the field (or default) is the value'),
    z
      .object({ field: z.string(), default: z.unknown().optional(), notEquals: z.unknown() })
      .describe('the field (or default) is not the value'),
    z.object({ field: z.string(), after: z.literal('now') }).describe('the field is a date-time later than the list is read'),
    z.object({ some: z.string(), where: Keep }).describe('some item of the array field is kept by where'),
    z.object({ all: z.array(Keep) }),
    z.object({ any: z.array(Keep) }),
  ]),
);

/**
 * A v2 list read by its token chain. `v1-page`: v2 pages of v1's page size, read up to v1's page
 * number, whose page is v1's; `end`: every page, v1's page cut from all the items. `size` and
 * `number` are v1's page size and number (absent: v1 answered the whole list).
 */
export const Pages = z.object({
  items: z.string().describe("the list's array in each page (`users`)"),
  until: z.enum(['v1-page', 'end']),
  size: Source.optional().describe("v1's page size"),
  number: Source.optional().describe("v1's page number"),
  keep: Keep.optional().describe(
    "the items v1's list keeps, read on each item as its fan-out read it in full: every item is read, then kept, then v1's page cut",
  ),
});

/** Several v1 parameters that together are one v2 field, as the composite's table of combinations. */
export const BodyComposite = z.object({
  v2: z.string().describe('dotted path in the body'),
  fields: z
    .array(z.object({ v1: z.string(), as: ValueType, default: z.unknown().optional().describe('its v1 default') }))
    .describe('the v1 parameters it is made of'),
  combinations: z
    .array(z.object({ v1: z.record(z.string(), z.unknown()), v2: z.unknown() }))
    .describe('each combination of the v1 values with the v2 value it becomes'),
});

export const PlannedStep = z.object({
  route: z.string(),
  method: z.string(),
  path: z.string().describe('the template: /meetings/{meetingId}'),
  when: Condition,
  pathParams: z.record(z.string(), Source).describe('each {placeholder} of path, and its source'),
  query: z
    .record(z.string(), Source)
    .nullable()
    .describe("each query field and its source, read off the recorded v2 calls; null where the record holds none of this step's calls"),
  body: z.array(BodyField).nullable().describe('the body of a write, each field named by its v1 parameter; null for no body'),
  pages: Pages.optional().describe('a list read page by page by its next_page_token'),
  constants: z.record(z.string(), z.unknown()).optional().describe('body fields every call sends as they are, by dotted path'),
  composites: z.array(BodyComposite).optional().describe('body fields made of several v1 parameters'),
  v1Defaults: z
    .boolean()
    .optional()
    .describe("whether the body sends the v1 defaults of the parameters left out (a create's); absent: a POST does"),
  /** How each source was found: from a declaration, or read off the record. */
  derived: z.string(),
});

const FromV2 = z
  .object({ from: z.literal('v2'), v2: z.string(), codec: Codec })
  .describe('a field of a step answer (the last step whose answer has it)');

/** A field of each item of a list answer: from the v2 item's field, through its codec. */
export const ItemField = z.object({ v1: z.string(), v2: z.string(), codec: Codec });

export const AnswerField = z.object({
  v1: z.string(),
  source: z.discriminatedUnion('from', [
    FromV2,
    z
      .object({ from: z.literal('param'), param: z.string(), as: ValueType, default: z.string().optional() })
      .describe('the v1 parameter, answered back (its v1 default where not given)'),
    z
      .object({
        from: z.literal('paging'),
        step: z.number().int().min(0).describe('the paged step (its index in steps)'),
        field: z.enum(['page_count', 'page_number', 'page_size', 'total_records']),
      })
      .describe(
        "v1's page of the paged step: its page_size and page_number (the step's), total_records (v2's), page_count (total_records / page_size, rounded up)",
      ),
    z
      .object({
        from: z.literal('items'),
        step: z.number().int().min(0).describe('the paged step (its index in steps)'),
        v2: z.string().describe("the paged step's items"),
        fields: z.array(ItemField),
      })
      .describe('the items of the paged step, each built field by field'),
  ]),
});

/** A v1 error the endpoint can answer, and the v2 errors behind it (mappings/errors.ts, the error texts, today's documented codes). */
export const PlannedError = z.object({
  code: z.number().int().describe('the v1 code'),
  message: z.string().describe('the v1 text (`<id>` stands for the value named; "v2\'s own text" where v2\'s text is passed on)'),
  kind: z.string().describe('the failure kind of the failure table (mappings/errors.ts)'),
  behind: z
    .array(
      z.object({
        route: z.string().describe("the v2 route, or 'any step'"),
        status: z.number().int().describe('the v2 HTTP status; 0: no answer'),
        code: z.number().int().optional().describe("the v2 error code of v2's answer"),
      }),
    )
    .describe('the v2 errors that become it'),
});

export const EndpointPlan = z.object({
  steps: z.array(PlannedStep),
  /** The reverse map: each v1 answer field it builds. */
  answer: z.array(AnswerField),
  /** v1 answer fields the recorded answers hold that the reverse map does not build (the translator computes them). */
  answerComputed: z.array(z.string()),
  /** The v1 errors it can answer, each with the v2 errors behind it. */
  errors: z.array(PlannedError),
  /** What the recipe cannot express for this endpoint, and why: `--verify` reports these instead of running it. */
  cannotExpress: z.array(z.string()),
});

export type ValueType = z.infer<typeof ValueType>;
export type Source = z.infer<typeof Source>;
export type Codec = z.infer<typeof Codec>;
export type Condition = z.infer<typeof Condition>;
export type BodyField = z.infer<typeof BodyField>;
export type BodyComposite = z.infer<typeof BodyComposite>;
export type PlannedStep = z.infer<typeof PlannedStep>;
export type AnswerField = z.infer<typeof AnswerField>;
export type EndpointPlan = z.infer<typeof EndpointPlan>;
export type Pages = z.infer<typeof Pages>;
export type ItemField = z.infer<typeof ItemField>;
export type PlannedError = z.infer<typeof PlannedError>;
