import type { RecordedCall } from '../compare/calls.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { NO_V2_FIELD, type FieldRow } from '../v1/field-map.js';
import { listShapeOf } from './plan-lists.js';
import type { AnswerField, ItemField, PlannedStep } from './plan-schema.js';
import { codecOf } from './plan-values.js';

/**
 * The reverse map: each v1 answer field built from the v2 answers by the output rows (v2 field →
 * v1 field, codec as data), a field answered back from a parameter, and, for an endpoint whose
 * answer is v1's page of a v2 list, the page: its paging fields (v1's page size and number, the
 * list's total, the page count) and its items, each built by the same rows from the v2 items.
 * What neither builds is the translator's, and listed so (`users[].pic_url` for an item's field).
 */

/** The identifiers of an answer (`id`, `uuid`, `host_id`...), as the compare tool reads them. */
const IDENTIFIER = /^(id|uuid|.+_id)$/;

const PAGING_FIELDS = ['page_count', 'page_number', 'page_size', 'total_records'] as const;
type PagingField = (typeof PAGING_FIELDS)[number];

const isPagingField = (key: string): key is PagingField => (PAGING_FIELDS as readonly string[]).includes(key);

type Answer = Record<string, unknown>;
const answerOf = (call: RecordedCall): Answer => (call.answer as Answer | null) ?? {};

const outputRows = (endpoint: EndpointDefinition): FieldRow[] =>
  (endpoint.tables ?? []).flat().filter((row) => row.direction !== 'in' && row.v2 !== NO_V2_FIELD);

/** The field built from a row, where its codec is data; undefined where the row's codec is translator code or no row names it. */
function fromRow(rows: readonly FieldRow[], key: string): ItemField | undefined {
  const row = rows.find((r) => r.v1 === key);
  const codec = row && codecOf(row.codec);
  return row && codec && codec.kind !== 'code' ? { v1: key, v2: row.v2, codec } : undefined;
}

/** The list step whose page is v1's: the first paged step of the routes the endpoint declares first. */
function pagedStep(endpoint: EndpointDefinition, steps: readonly PlannedStep[]): number {
  const declared = endpoint.v2Calls.map((route) => route.name);
  const paged = steps.map((step, i) => ({ step, i })).filter(({ step }) => step.pages && step.when.kind !== 'unseen');
  paged.sort((a, b) => declared.indexOf(a.step.route) - declared.indexOf(b.step.route));
  return paged[0]?.i ?? -1;
}

/** The items' fields the rows build (an item's identifiers by their own name), and those left to the translator. */
function itemFields(rows: readonly FieldRow[], items: readonly unknown[]): { fields: ItemField[]; left: string[] } {
  const keys = [...new Set(items.flatMap((item) => (item && typeof item === 'object' ? Object.keys(item) : [])))];
  const fields: ItemField[] = [];
  const left: string[] = [];
  for (const key of keys) {
    const field = fromRow(rows, key) ?? (IDENTIFIER.test(key) ? { v1: key, v2: key, codec: { kind: 'same' as const } } : undefined);
    if (field) fields.push(field);
    else left.push(key);
  }
  return { fields, left };
}

interface PageContext {
  index: number;
  step: PlannedStep;
  /** The fields the list's v2 page declares beside its items (a report's totals). */
  pageFields: readonly string[];
}

/** A field of v1's page: a paging field, the items, or a same-named field of the v2 page; undefined where it is none. */
function pageField(key: string, page: PageContext, answered: readonly RecordedCall[], rows: readonly FieldRow[], computed: string[]) {
  const pages = page.step.pages!;
  if (isPagingField(key)) {
    const v1Paging = key === 'page_size' ? pages.size : key === 'page_number' ? pages.number : undefined;
    if (v1Paging?.from === 'param')
      return { from: 'param' as const, param: v1Paging.param, as: 'number' as const, default: v1Paging.default };
    if ((key === 'page_size' || key === 'page_number' || key === 'page_count') && !pages.size) return undefined;
    return { from: 'paging' as const, step: page.index, field: key };
  }
  const shown = answered.map((call) => answerOf(call)[key]);
  // The page's items: the v1 list named as v2's, or the one list of an answer that counts its records (a resource's own array, a meeting's occurrences, is no page).
  const listed =
    key === pages.items ||
    answered.every((call) => 'total_records' in answerOf(call) && Object.values(answerOf(call)).filter(Array.isArray).length === 1);
  if (listed && shown.every(Array.isArray)) {
    const { fields, left } = itemFields(rows, shown.flat());
    computed.push(...left.map((field) => `${key}[].${field}`));
    return { from: 'items' as const, step: page.index, v2: pages.items, fields };
  }
  if (page.pageFields.includes(key)) return { from: 'v2' as const, v2: key, codec: { kind: 'same' as const } };
  return undefined;
}

/** The v1 answer field answered back from a parameter, or an identifier v2 names as v1 did. */
function echoed(key: string, answered: readonly RecordedCall[]): AnswerField['source'] | undefined {
  const param = Object.keys(answered[0]?.params ?? {}).find((p) =>
    answered.every((call) => String(answerOf(call)[key]) === call.params[p]),
  );
  const shown = answered[0] && answerOf(answered[0])[key];
  if (param) return { from: 'param', param, as: typeof shown === 'number' ? 'number' : 'string' };
  // An identifier no row names: the same-named field of the step answers, as v2 names ids as v1 did.
  if (IDENTIFIER.test(key) && typeof shown !== 'object') return { from: 'v2', v2: key, codec: { kind: 'same' } };
  return undefined;
}

/** The v1 answer fields the rows build from v2's answers, v1's page of a list, those answered back from a parameter, and the rest. */
export function reverseMap(
  endpoint: EndpointDefinition,
  steps: readonly PlannedStep[],
  answered: readonly RecordedCall[],
): { answer: AnswerField[]; computed: string[] } {
  const keys = [...new Set(answered.flatMap((call) => Object.keys(answerOf(call))))];
  const rows = outputRows(endpoint);
  const index = pagedStep(endpoint, steps);
  const page = index < 0 ? undefined : { index, step: steps[index]!, pageFields: listShapeOf(steps[index]!.route)?.fields ?? [] };
  const answer: AnswerField[] = [];
  const computed: string[] = [];
  for (const key of keys) {
    const row = fromRow(rows, key);
    const source = row
      ? { from: 'v2' as const, v2: row.v2, codec: row.codec }
      : ((page && pageField(key, page, answered, rows, computed)) ?? echoed(key, answered));
    if (source) answer.push({ v1: key, source });
    else computed.push(key);
  }
  return { answer, computed };
}
