import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import type { CallObserver, V1CallRecord } from '../v1-steps/observe.js';
import { KnownSecrets, type Redactor } from '../shared/secrets.js';
import type { Query } from '../upstream/credentials.js';
import { REDACTED, callRedactor, recordRedactor, recordableParams } from './secrets.js';

/**
 * Recorded v1 calls: one JSON line each (`calls.jsonl`), written by the gateway with
 * V1_RECORD_FILE, imported from HAR captures (har.ts), and replayed by `npm run compare`.
 * Credentials are never part of a record (the facade hands observers the params without
 * `api_key`/`api_secret`, and a replay substitutes the caller's own), and every secret is
 * replaced, by name and by value (secrets.ts).
 */
export interface RecordedCall {
  /** ISO time the call arrived. */
  time: string;
  /** The v1 path without `/v1`, as the endpoint is named (`/user/get`), or as sent when none matched. */
  path: string;
  /** The v1 params, credentials left out, secrets replaced. Lists as arrays of strings. */
  params: Record<string, string | string[]>;
  dataType: 'JSON' | 'XML';
  /** The v1 answer as served (the parsed object; the error envelope on failure), secrets replaced. */
  answer: unknown;
  /**
   * The v2 calls made for it, in the order they finished: method, path, status, ms, and (in records
   * written since they were kept) the route's name and whether it was a rollback's undo. Empty for
   * imported calls. `query`: the query string's fields as sent (secrets replaced), where it had any.
   */
  v2Calls: {
    method: string;
    path: string;
    query?: Record<string, string>;
    status: number;
    ms: number;
    route?: string;
    undo?: boolean;
  }[];
  ms: number;
  /** The integration that made it: a short hash of its api_key (`integrationOf`), never the key. */
  integration?: string;
}

/**
 * The name a record gives the integration behind a call: the first 12 hex digits of a SHA-256 of
 * its api_key. Records and recipes group calls by it without holding the key itself.
 */
export function integrationOf(apiKey: string): string {
  return createHash('sha256').update('v1gate integration\n').update(apiKey).digest('hex').slice(0, 12);
}

/** The record of a call, every secret replaced: `known` (the configured secrets), the request's own api_secret, and the tokens its params and answer carry. */
export function toRecordedCall(record: V1CallRecord, known: Redactor = recordRedactor()): RecordedCall {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(record.params ?? {})) {
    if (typeof value === 'string' || Array.isArray(value)) params[name] = value; // files are not replayable
  }
  const redactor = callRedactor(record.secrets ? known.with(record.secrets) : known, params, record.answer);
  return {
    time: record.startedAt.toISOString(),
    path: redactor.redact(record.endpoint ?? record.rawPath.replace(/^\/v1/i, '')),
    params: recordableParams(params, redactor),
    dataType: record.dataType,
    answer: redactor.redact(record.answer),
    v2Calls: record.v2Calls.map((c) => ({
      method: c.method,
      path: c.path,
      ...recordedQuery(c.query, redactor),
      status: c.status,
      ms: round(c.ms),
      route: c.route.name,
      ...(c.undo ? { undo: true } : {}),
    })),
    ms: round(record.ms),
    ...(record.apiKey === undefined ? {} : { integration: integrationOf(record.apiKey) }),
  };
}

/** A v2 call's query as recorded: its fields as the text sent (a field left undefined was not sent), secrets replaced. */
function recordedQuery(query: Readonly<Query> | undefined, redactor: Redactor): { query?: Record<string, string> } {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) sent[name] = String(value);
  return Object.keys(sent).length ? { query: redactor.redactParams(sent) as Record<string, string> } : {};
}

const round = (ms: number) => Math.round(ms * 100) / 100;

export interface RecorderOptions {
  file: string;
  /** Rotate when the file would grow past this many bytes: it becomes `<file>.1` (one generation kept). */
  maxBytes: number;
  /** The configured secrets (sandbox secret, tokens): redacted by value from every record. */
  secrets?: KnownSecrets;
}

/**
 * The call recorder: an observer that appends each v1 call to a JSONL file, rotating it by size.
 * Writes are synchronous appends of one whole line (O_APPEND), so a crash never leaves half a
 * record in the middle of the file and two lines never interleave.
 */
export function callRecorder(options: RecorderOptions): { observer: CallObserver; close(): void } {
  // The record holds what v1 clients sent: the owner's to read only, whatever the umask.
  let fd = openSync(options.file, 'a', 0o600);
  let size = statSync(options.file).size;
  const known = options.secrets ?? new KnownSecrets();
  return {
    observer(record) {
      const line = `${JSON.stringify(toRecordedCall(record, known.redactor(REDACTED)))}\n`;
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > options.maxBytes) {
        closeSync(fd);
        renameSync(options.file, `${options.file}.1`);
        fd = openSync(options.file, 'a', 0o600);
        size = 0;
      }
      writeSync(fd, line);
      size += bytes;
    },
    close() {
      closeSync(fd);
    },
  };
}

/** Read a JSONL file of recorded calls; a line that is not a call is an error naming its number. */
export function readCalls(file: string): RecordedCall[] {
  const calls: RecordedCall[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let value: Partial<RecordedCall>;
      try {
        value = JSON.parse(line) as Partial<RecordedCall>;
      } catch {
        throw new Error(`${file}:${i + 1}: not JSON`);
      }
      if (typeof value.path !== 'string' || typeof value.params !== 'object' || value.params === null) {
        throw new Error(`${file}:${i + 1}: a recorded call needs "path" and "params"`);
      }
      calls.push({ time: '', dataType: 'JSON', answer: undefined, v2Calls: [], ms: 0, ...value } as RecordedCall);
    });
  return calls;
}
