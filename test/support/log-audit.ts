import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REDACTED } from '../../src/ops/logging.js';

/**
 * Every gateway a test starts writes its log lines under one folder for the whole run
 * (V1GATE_TEST_LOG_DIR, made by test/support/global-setup.ts), next to the secrets it was given.
 * After the run, `auditLogFolder` reads every line and reports anything that must never be
 * logged: a known secret, a JWT, a bearer token, or a secret-named field with a real value.
 */

export const LOG_DIR_ENV = 'V1GATE_TEST_LOG_DIR';
export const LOG_SUFFIX = '.log';
export const SECRETS_SUFFIX = '.secrets';

const JWT = /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\./;
const BEARER = /bearer\s+[A-Za-z0-9._~+/-]{8,}/i;
const SECRET_FIELD = /^(api_secret|apisecret|password|token|jwt|authorization|access_token|secret)$/i;

function secretFieldsWithValues(value: unknown, path: string, found: string[]): void {
  if (Array.isArray(value)) value.forEach((item, i) => secretFieldsWithValues(item, `${path}[${i}]`, found));
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (SECRET_FIELD.test(key) && inner !== REDACTED) found.push(`${path}.${key}`);
      secretFieldsWithValues(inner, `${path}.${key}`, found);
    }
  }
}

/** What is wrong with one log line (empty: nothing). */
export function auditLogLine(line: string, secrets: readonly string[]): string[] {
  const problems: string[] = [];
  for (const secret of secrets) if (secret && line.includes(secret)) problems.push('contains a known secret');
  if (JWT.test(line)) problems.push('contains a JWT');
  if (BEARER.test(line)) problems.push('contains a bearer token');
  try {
    const fields: string[] = [];
    secretFieldsWithValues(JSON.parse(line), '', fields);
    for (const field of fields) problems.push(`${field} is not redacted`);
  } catch {
    problems.push('is not JSON');
  }
  return problems;
}

export interface AuditResult {
  lines: number;
  problems: string[];
}

export function auditLogFolder(dir: string): AuditResult {
  const files = readdirSync(dir);
  const secrets = files
    .filter((f) => f.endsWith(SECRETS_SUFFIX))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
  let lines = 0;
  const problems: string[] = [];
  for (const file of files.filter((f) => f.endsWith(LOG_SUFFIX))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line) continue;
      lines++;
      for (const problem of auditLogLine(line, secrets)) problems.push(`${file}: line ${problem}: ${line.slice(0, 200)}`);
    }
  }
  return { lines, problems };
}
