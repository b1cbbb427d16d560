import { BEYOND_TODAY } from '../v2-contract/v2-beyond-today.js';
import type { V2Scopes } from '../v2-contract/v2-contract.js';
import { TODAY_V2 } from '../v2-contract/v2-today.js';
import { templatePattern } from '../v2-contract/v2-route.js';
import { SandboxError } from './errors.js';

/**
 * Granular scopes, as the service checks them today: a token may call an operation when it holds
 * any one of the operation's granular scopes or any one of its classic scopes (today's documents,
 * `x-extensions`; src/v2-contract/v2-today.ts). Anything else is answered 400 with code 4711, naming
 * the granular scopes the operation takes (docs/live-evidence.md, "Granular scopes"). A token of
 * an app made without scopes may call everything; so may any token on an operation no document
 * gives scopes for.
 */

/** The service's code for a token without the operation's scopes. */
export const MISSING_SCOPES_CODE = 4711;

interface Operation {
  readonly method: string;
  readonly pattern: RegExp;
  readonly scopes: V2Scopes;
}

/** Literal paths before templated ones (`/users/email` before `/users/{userId}`): fewer params first. */
const paramCount = (template: string) => template.split('{').length - 1;

function compile(): Operation[] {
  const operations = new Map<string, V2Scopes>();
  for (const [name, op] of Object.entries(TODAY_V2)) operations.set(name, { granular: op.granular, classic: op.classic });
  for (const [name, row] of Object.entries(BEYOND_TODAY)) {
    const borrowed = row.scopesOf === undefined ? undefined : TODAY_V2[row.scopesOf];
    const scopes = borrowed ? { granular: borrowed.granular, classic: borrowed.classic } : row.scopes;
    if (scopes && !operations.has(name)) operations.set(name, scopes);
  }
  return [...operations]
    .map(([name, scopes]) => {
      const [method, template] = name.split(' ') as [string, string];
      return { method, template, pattern: templatePattern(template), scopes };
    })
    .sort((a, b) => paramCount(a.template) - paramCount(b.template))
    .map(({ method, pattern, scopes }) => ({ method, pattern, scopes }));
}

let compiled: Operation[] | undefined;

/** The scopes the operation at `method path` (relative to /v2) takes, or undefined where no document gives any. */
export function scopesOfCall(method: string, path: string): V2Scopes | undefined {
  compiled ??= compile();
  return compiled.find((op) => op.method === method && op.pattern.test(path))?.scopes;
}

/** Refuses a call the token's scopes do not cover; `held` undefined is a token of full access. */
export function requireScopes(held: readonly string[] | undefined, method: string, path: string): void {
  if (held === undefined) return;
  const needed = scopesOfCall(method, path);
  if (needed === undefined) return;
  if ([...needed.granular, ...needed.classic].some((scope) => held.includes(scope))) return;
  const named = needed.granular.length > 0 ? needed.granular : needed.classic;
  throw new SandboxError(400, MISSING_SCOPES_CODE, `Invalid access token, does not contain scopes:[${named.join(', ')}].`);
}
