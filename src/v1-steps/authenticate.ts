import { CONTROL_CHARACTER_REFUSAL, hasControlCharacter } from '../shared/control-characters.js';
import { Refusal } from '../translators/kit/failures.js';
import { invalidParameter } from '../v1/errors.js';
import type { Credentials } from '../upstream/client.js';
import type { PairProver } from '../upstream/pair-proof.js';
import type { LocalCheck } from '../upstream/auth/local-check.js';
import type { FieldsRead, Standing } from './v1-call.js';

/** What the authenticate step asks of the prover: whether v2 accepted the pair lately. */
export type PairStanding = Pick<PairProver, 'isProven'>;

/**
 * The second step, the facade's and the SDK signer's: who calls. The api_key and api_secret (both required), the key on the
 * allow-list when there is one, and the pair's standing: a pair v2 accepted lately is its key's
 * owner, limited and sent as such; any other is limited as itself and proven by its first v2 call
 * (src/upstream/pair-proof.ts), under the proof budget, never with the key's tokens. A pair that
 * can be proven here, without v2 (a credential map's local check), is decided here. It hands on
 * what came before it with the pair and its standing.
 */
export function authenticate<R extends FieldsRead>(read: R, allowed: ReadonlySet<string> | undefined, pairs: PairStanding): R & Standing;
export function authenticate<R extends FieldsRead>(
  read: R,
  allowed: ReadonlySet<string> | undefined,
  pairs: PairStanding,
  local: Pick<LocalCheck, 'decide'> | undefined,
): (R & Standing) | Promise<R & Standing>;
export function authenticate<R extends FieldsRead>(
  read: R,
  allowed: ReadonlySet<string> | undefined,
  pairs: PairStanding,
  local?: Pick<LocalCheck, 'decide'>,
): (R & Standing) | Promise<R & Standing> {
  const credentials = credentialsOf(read.params, allowed);
  const decided = local?.decide(credentials);
  // Asynchronous only when a new pair of a mapped key is hashed: the usual call awaits nothing here.
  if (decided instanceof Promise) return decided.then((proven) => standing(read, credentials, proven || pairs.isProven(credentials)));
  return standing(read, credentials, decided === true || pairs.isProven(credentials));
}

/**
 * `read` with the pair and its standing written onto it: the same object handed on, not a copy.
 * A copy cost an object, a literal and a copy of every field per call (`{ ...read, credentials,
 * proven }` is worse: fields added to a spread object take V8's slow path in Node 20, 5 µs a call,
 * https://bugs.chromium.org/p/v8/issues/detail?id=11536); the facade's read makes its object with
 * these fields already in place (StepsOfCall, v1-call.ts), so writing them changes no shape. The
 * types still say what each step established: nothing before this step reads them.
 */
function standing<R extends FieldsRead>(read: R, credentials: Credentials, proven: boolean): R & Standing {
  const stood = read as R & { credentials: Credentials; proven: boolean };
  stood.credentials = credentials;
  stood.proven = proven;
  return stood;
}

function credentialsOf(params: FieldsRead['params'], allowed: ReadonlySet<string> | undefined): Credentials {
  const apiKey = typeof params.api_key === 'string' ? params.api_key.trim() : '';
  const apiSecret = typeof params.api_secret === 'string' ? params.api_secret.trim() : '';
  if (!apiKey || !apiSecret) throw new Refusal('missing-credentials');
  // Before any lookup, hash or comparison: `secret\0` would hash as `secret` (and be remembered apart).
  if (hasControlCharacter(apiKey)) throw invalidParameter('api_key', CONTROL_CHARACTER_REFUSAL);
  if (hasControlCharacter(apiSecret)) throw invalidParameter('api_secret', CONTROL_CHARACTER_REFUSAL);
  if (allowed && !allowed.has(apiKey)) throw new Refusal('key-not-allowed');
  return { apiKey, apiSecret };
}
