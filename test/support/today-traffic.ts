import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TRAFFIC_SUFFIX, type TrafficRecord } from '../../src/sandbox/traffic-log.js';
import { TODAY_DIFFERENCES, type TodayDifference } from './today-differences.js';
import { schemaProblemsOf, todayOperation, undeclaredProperties, type TodayOperation, type TodayProblem } from './today-openapi.js';
import { readJsonLines } from './json-lines.js';

/**
 * The suite's v2 traffic against today's documents: every answer the sandbox gave (its status one
 * the operation lists, its body valid against that status's schema) and every request v1gate sent
 * (path and query parameters the operation takes, valid as today; a JSON body of the operation's
 * schema, no property it does not name). Each problem is either a row of TODAY_DIFFERENCES, with
 * its evidence and reason, or a failure of the run.
 */

export const TRAFFIC_LOG_ENV = 'SANDBOX_TRAFFIC_LOG';

export function readTraffic(folder: string): TrafficRecord[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith(TRAFFIC_SUFFIX))
    .flatMap((file) => readJsonLines<TrafficRecord>(join(folder, file)));
}

/** What today's documents say otherwise about one exchange. */
export function exchangeProblems(record: TrafficRecord): TodayProblem[] {
  const op = todayOperation(record.method, record.path);
  const succeeded = record.status >= 200 && record.status < 300;
  if (!op) {
    return succeeded || record.fromGateway
      ? [{ side: 'operation', operation: `${record.method} ${record.path}`, place: '', message: "not an operation of today's documents" }]
      : [];
  }
  const name = `${op.method} ${op.template}`;
  const problems: TodayProblem[] = [];
  if (succeeded) problems.push(...answerProblems(op, record).map((p) => ({ side: 'answer' as const, operation: name, ...p })));
  if (record.fromGateway) problems.push(...requestProblems(op, record).map((p) => ({ side: 'request' as const, operation: name, ...p })));
  return problems;
}

type Found = { place: string; message: string };

function answerProblems(op: TodayOperation, record: TrafficRecord): Found[] {
  const place = `status ${record.status}`;
  const response = op.operation.responses?.[String(record.status)];
  if (!response) return [{ place, message: `not an answer the operation lists (${Object.keys(op.operation.responses ?? {}).join(', ')})` }];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return record.answer === '' ? [] : [{ place, message: 'a body where the operation answers none' }];
  let body: unknown;
  try {
    body = JSON.parse(record.answer);
  } catch {
    return [{ place, message: 'not JSON' }];
  }
  return schemaProblemsOf(schema, body, `${place} `);
}

function requestProblems(op: TodayOperation, record: TrafficRecord): Found[] {
  return [...pathProblems(op, record.path), ...queryProblems(op, record.query), ...bodyProblems(op, record)];
}

function pathProblems(op: TodayOperation, path: string): Found[] {
  const names = op.template.split('/');
  const values = path.split('/');
  return names.flatMap((segment, i) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    const param = name === undefined ? undefined : op.operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    if (!param?.schema) return [];
    return schemaProblemsOf(param.schema, typed(param.schema, decodeURIComponent(values[i] ?? '')), `path ${param.name}`);
  });
}

function queryProblems(op: TodayOperation, query: string): Found[] {
  const params = new URLSearchParams(query);
  const declared = (op.operation.parameters ?? []).filter((p) => p.in === 'query');
  const problems: Found[] = [];
  for (const key of new Set(params.keys())) {
    const param = declared.find((p) => p.name === key);
    if (!param) problems.push({ place: `query ${key}`, message: 'not a parameter of the operation' });
    else if (param.schema) problems.push(...schemaProblemsOf(param.schema, typed(param.schema, params.get(key) ?? ''), `query ${key}`));
  }
  for (const param of declared) {
    if (param.required && !params.has(param.name)) problems.push({ place: `query ${param.name}`, message: 'required, not sent' });
  }
  return problems;
}

function bodyProblems(op: TodayOperation, record: TrafficRecord): Found[] {
  const takes = op.operation.requestBody;
  if (record.bodyUnread) return [];
  if (record.requestBody === undefined) return takes?.required ? [{ place: 'body', message: 'required, not sent' }] : [];
  if (!(record.requestType ?? '').includes('json')) return [];
  const schema = takes?.content?.['application/json']?.schema;
  if (!schema) return [{ place: 'body', message: 'the operation takes no JSON body' }];
  let body: unknown;
  try {
    body = JSON.parse(record.requestBody);
  } catch {
    return [{ place: 'body', message: 'not JSON' }];
  }
  return [
    ...schemaProblemsOf(schema, body, 'body '),
    ...undeclaredProperties(schema, body, 'body ').map((place) => ({ place, message: 'not a property the operation takes' })),
  ];
}

/** A path or query value as the parameter's type reads it (they travel as text). */
function typed(schema: Record<string, unknown>, text: string): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (schema.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

export interface TrafficVerdict {
  exchanges: number;
  fromGateway: number;
  /** Problems no row explains, each once, with how often it was seen. */
  unexplained: (TodayProblem & { seen: number })[];
  /** How many problems each row explained (by index in the table). */
  explainedBy: Map<number, number>;
}

export function explainingRow(problem: TodayProblem, table: readonly TodayDifference[]): number {
  return table.findIndex(
    (row) =>
      row.side === problem.side &&
      (typeof row.operation === 'string' ? row.operation === problem.operation : row.operation.test(problem.operation)) &&
      row.place.test(problem.place) &&
      (row.message === undefined || row.message.test(problem.message)),
  );
}

export function checkTraffic(records: readonly TrafficRecord[], table: readonly TodayDifference[] = TODAY_DIFFERENCES): TrafficVerdict {
  const unexplained = new Map<string, TodayProblem & { seen: number }>();
  const explainedBy = new Map<number, number>();
  for (const record of records) {
    for (const problem of exchangeProblems(record)) {
      const row = explainingRow(problem, table);
      if (row >= 0) {
        explainedBy.set(row, (explainedBy.get(row) ?? 0) + 1);
        continue;
      }
      const key = `${problem.side} ${problem.operation} ${problem.place} ${problem.message}`;
      const known = unexplained.get(key);
      if (known) known.seen++;
      else unexplained.set(key, { ...problem, seen: 1 });
    }
  }
  return {
    exchanges: records.length,
    fromGateway: records.filter((r) => r.fromGateway).length,
    unexplained: [...unexplained.values()],
    explainedBy,
  };
}

export function describeProblem(p: TodayProblem & { seen?: number }): string {
  return `${p.side} ${p.operation} ${p.place}: ${p.message}${p.seen ? ` (${p.seen}x)` : ''}`;
}
