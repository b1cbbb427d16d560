import { ERROR_TEXTS, type ErrorText } from '../../mappings/error-texts.js';
import { FAILURES, v2FailureKind, type FailureKind, type FailureRow } from '../../mappings/errors.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { TODAY_V2 } from '../v2-contract/v2-today.js';
import type { PlannedError } from './plan-schema.js';

/**
 * The v1 errors an endpoint can answer, each with the v2 errors behind it: read from the failure
 * table (mappings/errors.ts: which v2 status and code becomes which v1 code and text), the error
 * texts (the v1 wording of each) and the v2 codes today's documents list for each route the
 * endpoint calls. A failure any v2 call can meet (a refused token, a missing privilege, a limit,
 * v2 failing or not answering) is named once, behind `any step`.
 */

/** What any v2 call can meet, whatever its route: each status and the failure it is. */
const ANY_STEP: readonly { status: number; kind: FailureKind }[] = [
  { status: 401, kind: 'v2-bad-credentials' },
  { status: 403, kind: 'v2-no-privilege' },
  { status: 429, kind: 'v2-rate-limited' },
  { status: 500, kind: 'v2-failed' },
  { status: 0, kind: 'upstream-timeout' },
];

export const ANY_STEP_ROUTE = 'any step';

export interface ErrorTables {
  failures: Readonly<Record<FailureKind, FailureRow>>;
  texts: Readonly<Record<string, ErrorText>>;
}

const TABLES: ErrorTables = { failures: FAILURES, texts: ERROR_TEXTS };

/**
 * The v1 text of a failure: the failure table's own; else the error texts' rows for it (of a v2
 * code, the rows of that code v2's texts are passed on or reworded by; of a failure without one,
 * the rows v1gate writes for its kind), joined by "or"; else v2's own text, passed on.
 */
function v1Text(kind: FailureKind, code: number | undefined, tables: ErrorTables): string {
  const row = tables.failures[kind];
  if (row.v1Message !== 'keep') return row.v1Message;
  const texts = Object.values(tables.texts).filter((text) =>
    code === undefined ? text.kinds.includes(kind) && !text.kinds.includes('v2-coded') : text.kinds.includes(kind) && text.code === code,
  );
  return texts.length ? texts.map((text) => text.text).join(' or ') : "v2's own text";
}

function v1Code(kind: FailureKind, code: number | undefined, tables: ErrorTables): number {
  const row = tables.failures[kind];
  return row.v1Code === 'keep' ? (code ?? 0) : row.v1Code;
}

/** The v1 errors of `endpoint`, each with the v2 statuses and codes behind it, in the order first met. */
export function plannedErrors(endpoint: EndpointDefinition, tables: ErrorTables = TABLES): PlannedError[] {
  const errors = new Map<string, PlannedError>();
  const add = (kind: FailureKind, route: string, status: number, code: number | undefined) => {
    const v1 = { code: v1Code(kind, code, tables), message: v1Text(kind, code, tables) };
    const key = `${kind} ${v1.code} ${v1.message}`;
    const error = errors.get(key) ?? { ...v1, kind, behind: [] };
    error.behind.push({ route, status, ...(code === undefined ? {} : { code }) });
    errors.set(key, error);
  };
  for (const route of endpoint.v2Calls)
    for (const [status, codes] of Object.entries(TODAY_V2[route.name]?.errors ?? {}))
      for (const code of codes) add(v2FailureKind(Number(status), true, false), route.name, Number(status), code);
  if (endpoint.v2Calls.length > 0) for (const { status, kind } of ANY_STEP) add(kind, ANY_STEP_ROUTE, status, undefined);
  return [...errors.values()];
}

/** The v1 error the plan names for a v2 refusal of `route` (its status and code), if it names one. */
export function plannedErrorOf(
  errors: readonly PlannedError[],
  route: string,
  status: number,
  code: number | undefined,
): PlannedError | undefined {
  const coded = errors.find((e) => e.behind.some((b) => b.route === route && b.status === status && b.code === code));
  const anyStep = status >= 500 ? 500 : status;
  return coded ?? errors.find((e) => e.behind.some((b) => b.route === ANY_STEP_ROUTE && b.status === anyStep));
}
