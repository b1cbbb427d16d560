import { CALL_ERROR_TEXTS } from './error-texts-of-calls.js';
import { REQUEST_ERROR_TEXTS } from './error-texts-of-requests.js';
import type { ErrorText } from './error-text-row.js';

export type { ErrorText } from './error-text-row.js';

/**
 * Every v1 error text v1gate answers, one row each: the texts it writes itself and the v2 texts
 * (the sandbox's, as today's service words them) it passes through. Clients classify v1 errors by
 * their text as well as their code, so each text is a contract with its source: public code or
 * documentation showing the live service's words, or, where none was found, the reason for ours.
 * docs/live-evidence.md ("The error texts clients match on") is this table rendered
 * (`errorTextTable`), and test/gateway/error-texts.test.ts drives the call behind each row.
 *
 * The rows are kept in two files by when a call meets them, reading it or doing it; an id is
 * unique across both (`noIdInBoth` does not compile otherwise).
 */
const noIdInBoth: [keyof typeof REQUEST_ERROR_TEXTS & keyof typeof CALL_ERROR_TEXTS] extends [never] ? true : never = true;
void noIdInBoth;

export const ERROR_TEXTS = { ...REQUEST_ERROR_TEXTS, ...CALL_ERROR_TEXTS } satisfies Record<string, ErrorText>;
export type ErrorTextId = keyof typeof ERROR_TEXTS;

/**
 * v2 texts v1 clients read in the live v1's words: v1-era clients tell a gone meeting by "not
 * found" and a missing user by "User not exist", which today's "does not exist" texts fail. Each
 * v2 form names its value as its v1 row does; a v2 text of another form is answered as it is.
 */
const V1_WORDING: readonly { code: number; today: RegExp; row: ErrorTextId }[] = [
  { code: 1001, today: /^User does not exist: (.+?)\.?$/s, row: 'user-not-exist' },
  { code: 3001, today: /^Meeting does not exist: (.+?)\.?$/s, row: 'meeting-not-exist' },
  { code: 3001, today: /^Webinar does not exist: (.+?)\.?$/s, row: 'webinar-not-exist' },
  { code: 4130, today: /^Group does not exist: (.+?)\.?$/s, row: 'group-not-exist' },
];

/** A v2 error's text as the live v1 worded it, where the table says how; otherwise v2's own. */
export function inV1Words(code: number, message: string): string {
  for (const wording of V1_WORDING) {
    const value = wording.code === code ? wording.today.exec(message)?.[1] : undefined;
    if (value !== undefined) return ERROR_TEXTS[wording.row].text.replace(/<[^>]+>/, () => value);
  }
  return message;
}

/** Markdown cells cannot hold a bare `|`. */
const cell = (text: string) => text.replaceAll('|', '\\|');

/** The table as docs/live-evidence.md shows it, one row per text. */
export function errorTextTable(): string {
  const head = ['| code | text | where | source |', '|---|---|---|---|'];
  const body = Object.values(ERROR_TEXTS).map(
    (row: ErrorText) => `| ${row.code} | \`${row.text}\` | ${cell(row.where)} | ${cell(row.source)} |`,
  );
  return [...head, ...body].join('\n');
}
