import distance from 'damerau-levenshtein';
import { CLUSTER_ENV } from './shared/cluster-protocol.js';
import { SETTINGS } from './config.js';
import { variablesOf, type Env } from './shared/env.js';

/**
 * Variables that look like v1gate settings but are none: a misspelt setting is otherwise ignored
 * without a word (`PROT=8081` serves on 8080). Which names are looked at, and how close is close:
 *
 * - a name with one of v1gate's own prefixes (`V1_`, `V2_`, `SANDBOX_`, `RATE_LIMIT_`, `OUTBOUND_`,
 *   `UPSTREAM_`, `SHADOW_`) that v1gate does not read is always named, with the nearest setting
 *   when it is at most a quarter of the name's length away (at least 2 edits);
 * - any other name only when it is one edit from a setting (a letter added, dropped, changed, or
 *   two letters swapped: `PROT` → `PORT`), or two for names of 8 letters or more, in any letter
 *   case. Common variables stay out: `HOME` is two edits from `HOST`, `PATH` three from `PORT`;
 * - a name with OpenTelemetry's prefix (`OTEL_`) only when it is one edit from a setting, whatever
 *   its length: the specification defines dozens of such names, many two edits apart
 *   (`OTEL_BLRP_SCHEDULE_DELAY`, the log processor's, beside `OTEL_BSP_SCHEDULE_DELAY`, the span
 *   processor's), and v1gate reads only some of them while the SDK may read others.
 *
 * Distances are Damerau-Levenshtein's (a swap of neighbours is one edit, the commonest typo).
 */

const OUR_PREFIXES = ['V1_', 'V2_', 'SANDBOX_', 'RATE_LIMIT_', 'OUTBOUND_', 'UPSTREAM_', 'SHADOW_'];

/** A standard's prefix: its names are many and close together, so only a one-edit slip is named. */
const STANDARD_PREFIX = 'OTEL_';

/** Read by v1gate's other programs, not the gateway: `npm run compare`'s live credentials. */
const READ_BY_TOOLS = ['V1_API_KEY', 'V1_API_SECRET'];

export interface UnknownSetting {
  variable: string;
  /** The setting it most likely meant, when one is close. */
  suggestion: string | undefined;
}

/** Every setting v1gate reads, under current and old names, and what the cluster sets for its workers. */
export function knownVariables(): ReadonlySet<string> {
  return new Set([...variablesOf(SETTINGS), ...Object.values(CLUSTER_ENV), ...READ_BY_TOOLS]);
}

/** The variables of `env` that look like settings v1gate does not know, in name order. */
export function unknownSettings(env: Env, known: ReadonlySet<string> = knownVariables()): UnknownSetting[] {
  const found: UnknownSetting[] = [];
  for (const variable of Object.keys(env).sort()) {
    if (known.has(variable)) continue;
    const upper = variable.toUpperCase();
    const ours = OUR_PREFIXES.some((prefix) => upper.startsWith(prefix));
    const nearest = nearestOf(upper, known);
    const close = nearest && nearest.steps <= editsAllowed(upper, ours);
    if (ours || close) found.push({ variable, suggestion: close ? nearest.name : undefined });
  }
  return found;
}

/** How many edits from a setting a name may be and still be taken for a slip of it. */
function editsAllowed(name: string, ours: boolean): number {
  if (ours) return Math.max(2, Math.floor(name.length / 4));
  if (name.startsWith(STANDARD_PREFIX)) return 1;
  return name.length >= 8 ? 2 : 1;
}

/** One line for an operator. */
export function describeUnknownSetting({ variable, suggestion }: UnknownSetting): string {
  return `${variable} is not a v1gate setting and is ignored${suggestion ? `: did you mean ${suggestion}?` : ''}`;
}

function nearestOf(name: string, known: ReadonlySet<string>): { name: string; steps: number } | undefined {
  let best: { name: string; steps: number } | undefined;
  for (const candidate of known) {
    const { steps } = distance(name, candidate);
    if (!best || steps < best.steps) best = { name: candidate, steps };
  }
  return best;
}
