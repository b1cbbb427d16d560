import { leafField as leaf, type Difference } from './diff.js';
import { REDACTED } from './secrets.js';

/**
 * What must differ between two services answering the same call, reported apart from real
 * differences (never hidden): identifiers each service mints, links that embed them, and action
 * times a few seconds apart. A rule applies to value differences only: a missing field or a
 * changed type is always real.
 */
export interface NoiseRule {
  name: string;
  applies(difference: Difference): boolean;
}

const ID_FIELD = /^(id|uuid|.*_id|.*_uuid|zak|zpk|token|password|pmi|h323_password|encrypted_password)$/;
const URL_FIELD = /_url$/;
const TIME_FIELD = /(_at|_time|^time)$/;

/** Two ISO times within `toleranceMs` of each other. */
function closeInTime(a: unknown, b: unknown, toleranceMs: number): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isFinite(ta) && Number.isFinite(tb) && Math.abs(ta - tb) <= toleranceMs;
}

export function builtInNoise(timeToleranceMs = 60_000): NoiseRule[] {
  return [
    { name: 'minted identifier', applies: (d) => d.kind === 'value' && ID_FIELD.test(leaf(d.field)) },
    {
      // A record holds `redacted` where the answer held a secret (secrets.ts): what was there is unknowable.
      name: 'secret redacted in the recording',
      applies: (d) => d.kind === 'value' && (d.a === REDACTED || d.b === REDACTED),
    },
    { name: 'link embedding an identifier', applies: (d) => d.kind === 'value' && URL_FIELD.test(leaf(d.field)) },
    {
      name: `time within ${timeToleranceMs / 1000} s`,
      applies: (d) => d.kind === 'value' && TIME_FIELD.test(leaf(d.field)) && closeInTime(d.a, d.b, timeToleranceMs),
    },
  ];
}

/** Diffy's method: fields that differ between two runs of the same target are noise for that call. */
export function observedNoise(fields: ReadonlySet<string>): NoiseRule {
  return { name: 'differs between two runs of A', applies: (d) => fields.has(d.field) };
}

export function noiseReason(difference: Difference, rules: readonly NoiseRule[]): string | undefined {
  return rules.find((rule) => rule.applies(difference))?.name;
}
