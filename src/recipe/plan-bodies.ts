import { z } from 'zod';
import type { RecordedCall } from '../compare/calls.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import type { WriteBody } from '../translators/kit/write-bodies.js';
import { NO_V2_FIELD, type CompositeMapping, type FieldRow } from '../v1/field-map.js';
import type { BodyComposite, BodyField, PlannedStep } from './plan-schema.js';
import { codecOf, valueTypeOf } from './plan-values.js';

/**
 * The body of each write step of a plan, from the declarations: an endpoint that makes one write
 * sends its input rows there; one that makes several declares which rows go to which
 * (`v2Writes`, kit/write-bodies.ts), the same declaration its translator builds the bodies from.
 * Composites are data (their combinations); what only code says is a problem, with why.
 */

/** The values the integration sent for a parameter: how its declared type read them says how a recipe reads it. */
const sent = (answered: readonly RecordedCall[], name: string) =>
  answered.flatMap((call) => (call.params[name] === undefined ? [] : [call.params[name]]));

const givenIn = (answered: readonly RecordedCall[], param: string) => answered.some((call) => call.params[param] !== undefined);

const isInput = (row: FieldRow) => row.direction !== 'out' && row.v2 !== NO_V2_FIELD && row.codec?.name !== 'accepted and dropped';

function bodyField(row: FieldRow, answered: readonly RecordedCall[], under: string | undefined): BodyField {
  return {
    v2: under === undefined ? row.v2 : `${under}.${row.v2}`,
    v1: row.v1,
    as: valueTypeOf(row.type, sent(answered, row.v1)),
    codec: codecOf(row.codec),
    ...(row.v1Default === undefined ? {} : { default: row.v1Default }),
  };
}

function bodyComposite(composite: CompositeMapping, answered: readonly RecordedCall[], withDefaults: boolean): BodyComposite {
  return {
    v2: composite.v2,
    fields: Object.entries(composite.fields).map(([v1, { type, v1Default }]) => ({
      v1,
      as: valueTypeOf(type, sent(answered, v1)),
      ...(v1Default === undefined || !withDefaults ? {} : { default: v1Default }),
    })),
    combinations: composite.combinations.map((c) => ({ v1: { ...c.v1 }, v2: c.v2 })),
  };
}

/**
 * A body's rows and composites, with what a recipe cannot do with them for the calls recorded.
 * `compositeDefaults`: whether the write completes a composite with its fields' v1 defaults (a
 * declared create's does; of an undeclared write nothing says so, and none is sent).
 */
function bodyParts(
  rows: readonly FieldRow[],
  composites: readonly CompositeMapping[],
  at: { answered: readonly RecordedCall[]; under?: string | undefined; compositeDefaults: boolean; problems: string[] },
): Pick<PlannedStep, 'body' | 'composites'> {
  const body = rows.filter(isInput).map((row) => bodyField(row, at.answered, at.under));
  for (const field of body)
    if (field.codec.kind === 'code' && givenIn(at.answered, field.v1))
      at.problems.push(`${field.v1} → ${field.v2}: its codec (${field.codec.name}) is translator code, not data`);
  for (const composite of composites) {
    const fields = Object.keys(composite.fields);
    // A composite given in part is completed from the v2 value as it is, which no step of a recipe reads.
    const complete = (call: RecordedCall) =>
      fields.every((f) => call.params[f] !== undefined || (at.compositeDefaults && composite.fields[f]!.v1Default !== undefined));
    if (at.answered.some((call) => fields.some((f) => call.params[f] !== undefined) && !complete(call)))
      at.problems.push(`${fields.join(' + ')} → ${composite.v2}: given in part, completed by the translator from the current v2 value`);
  }
  return { body, composites: composites.map((c) => bodyComposite(c, at.answered, at.compositeDefaults)) };
}

function declaredBody(step: PlannedStep, write: WriteBody, answered: readonly RecordedCall[], problems: string[]): void {
  const parts = bodyParts(write.rows, write.composites, { answered, under: write.under, compositeDefaults: write.v1Defaults, problems });
  Object.assign(step, parts, { constants: { ...write.constants }, v1Defaults: write.v1Defaults });
  step.derived += '; body: the rows its declared write (v2Writes) names';
}

const isWrite = (step: PlannedStep) =>
  ['POST', 'PATCH', 'PUT'].includes(step.method) && step.when.kind !== 'unseen' && step.when.kind !== 'rollback';

/** The body of each write step, from the input rows; what a body cannot say, as problems. */
export function planBodies(
  steps: PlannedStep[],
  endpoint: EndpointDefinition,
  answered: readonly RecordedCall[],
  problems: string[],
): void {
  const writes = steps.filter(isWrite);
  const declared = endpoint.v2Writes ?? [];
  if (declared.length > 0) {
    for (const step of writes) {
      const write = declared.find((w) => w.route.name === step.route);
      if (write) declaredBody(step, write, answered, problems);
      else problems.push(`${step.route}: no declared write (v2Writes) names its body (the translator writes it)`);
    }
    return;
  }
  if (writes.length === 0) return;
  if (writes.length > 1) {
    problems.push(
      `${writes.length} write steps (${writes.map((s) => s.route).join(', ')}): the declarations do not say which input row goes to which`,
    );
    return;
  }
  const [write] = writes;
  const v1Defaults = write!.method === 'POST';
  const parts = bodyParts((endpoint.tables ?? []).flat(), endpoint.composites ?? [], { answered, compositeDefaults: false, problems });
  if (parts.body!.length === 0 && parts.composites!.length === 0)
    problems.push(`${write!.route}: no input row declares its body (the translator writes it)`);
  Object.assign(write!, parts, { v1Defaults });
}

/** How the declared type reads a parameter, for the path values a plan takes from parameters. */
export const paramType = (endpoint: EndpointDefinition, name: string, answered: readonly RecordedCall[]) => {
  const schema = endpoint.params as unknown;
  return schema instanceof z.ZodObject ? valueTypeOf(schema.shape[name] as z.ZodType | undefined, sent(answered, name)) : 'string';
};
