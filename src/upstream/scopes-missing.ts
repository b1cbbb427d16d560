import { Failure } from '../shared/failure.js';

/**
 * A v1 call its v2 app's token cannot complete: the scopes the app lacks, found before the call's
 * first v2 call (nothing was sent), or named by v2's own refusal (400, code 4711), after which
 * calls of it made before may have been applied. Both are answered as one v1 error, no privilege
 * (mappings/errors.ts, `scopes-missing`), naming the scopes to add.
 */

/** The service's code for a token without the operation's scopes (docs/live-evidence.md, "Granular scopes"). */
export const MISSING_SCOPES_V2_CODE = 4711;

export class ScopesMissing extends Failure {
  override readonly name = 'ScopesMissing';
  readonly kind = 'scopes-missing';
  constructor(readonly scopes: readonly string[]) {
    super(scopesMissingMessage(scopes, true));
  }
}

/** The v1 message: the scopes to add, by name, and whether anything may have been changed. */
export function scopesMissingMessage(scopes: readonly string[], nothingSent: boolean): string {
  const outcome = nothingSent ? 'Nothing was changed.' : 'Calls of it made before this one may have been applied.';
  return `No privilege: the v2 app of this api_key does not have the scopes [${scopes.join(', ')}] this call needs (docs/scopes.md). ${outcome}`;
}

/** The scopes a 4711's message names (`... does not contain scopes:[a, b].`); an empty list when it names none. */
export function scopesNamedBy(message: string): string[] {
  const list = /scopes:\s*\[([^\]]*)\]/.exec(message)?.[1];
  return list === undefined ? [] : list.split(/[,\s]+/).filter((scope) => scope.length > 0);
}
