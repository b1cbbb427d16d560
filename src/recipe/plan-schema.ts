import { z } from 'zod';

/**
 * The part of recipe.json a program runs: each endpoint's v2 steps with when each runs and where
 * every value of its path, query and body comes from, and the reverse map that builds the v1 answer
 * from the v2 answers. `--verify` reads recipe.json through this schema and runs nothing else, so
 * what the schema cannot say the recipe says it cannot express (`cannotExpress`).
 */

/** How a v1 form value is read before it is sent: v1 took every value as text. */
export const ValueType = z
  .enum(['string', 'number', 'boolean', 'list'])
  .describe('how the v1 text is read: as sent, a number, a boolean (true/false/1/0), a list');

/** Where one value of a v2 request comes from. */
export const Source = z
  .discriminatedUnion('from', [
    z.object({ from: z.literal('param'), param: z.string(), as: ValueType.optional() }).describe('the v1 parameter of that name'),
    z.object({ from: z.literal('constant'), value: z.unknown() }).describe('the same value in every call'),
    z.object({ from: z.literal('item'), param: z.string() }).describe('the current item of a fan-out over a list parameter'),
    z
      .object({ from: z.literal('step'), step: z.number().int().min(0), field: z.string() })
      .describe("a field of an earlier step's v2 answer (step: its index in steps)"),
  ])
  .describe('where a value comes from');

/** How a value changes between v1 and v2, as data a program can apply both ways. */
export const Codec = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('same') }),
    z.object({ kind: z.literal('negated') }),
    z.object({ kind: z.literal('enum'), pairs: z.array(z.tuple([z.unknown(), z.unknown()])).describe('[v1 value, v2 value]') }),
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

export const PlannedStep = z.object({
  route: z.string(),
  method: z.string(),
  path: z.string().describe('the template: /meetings/{meetingId}'),
  when: Condition,
  pathParams: z.record(z.string(), Source).describe('each {placeholder} of path, and its source'),
  query: z.record(z.string(), Source).nullable().describe('null: the record keeps no query string and the declarations name none'),
  body: z.array(BodyField).nullable().describe('the body of a write, each field named by its v1 parameter; null for no body'),
  /** How each source was found: from a declaration, or read off the record. */
  derived: z.string(),
});

export const AnswerField = z.object({
  v1: z.string(),
  source: z.discriminatedUnion('from', [
    z
      .object({ from: z.literal('v2'), v2: z.string(), codec: Codec })
      .describe('a field of a step answer (the last step whose answer has it)'),
    z.object({ from: z.literal('param'), param: z.string(), as: ValueType }).describe('the v1 parameter, answered back'),
  ]),
});

export const EndpointPlan = z.object({
  steps: z.array(PlannedStep),
  /** The reverse map: each v1 answer field it builds. */
  answer: z.array(AnswerField),
  /** v1 answer fields the recorded answers hold that the reverse map does not build (the translator computes them). */
  answerComputed: z.array(z.string()),
  /** What the recipe cannot express for this endpoint, and why: `--verify` reports these instead of running it. */
  cannotExpress: z.array(z.string()),
});

export type ValueType = z.infer<typeof ValueType>;
export type Source = z.infer<typeof Source>;
export type Codec = z.infer<typeof Codec>;
export type Condition = z.infer<typeof Condition>;
export type BodyField = z.infer<typeof BodyField>;
export type PlannedStep = z.infer<typeof PlannedStep>;
export type AnswerField = z.infer<typeof AnswerField>;
export type EndpointPlan = z.infer<typeof EndpointPlan>;
