import type { EndpointCutover } from './cutover.js';

/** An endpoint's cut-over state in words, for the shadow report and the status page: where it stands, and why. */
export function describeCutover(state: EndpointCutover | undefined, promoteAfter: number): string {
  if (!state) return promoteAfter > 0 ? `shadowing: no call compared yet (promoted after ${promoteAfter} in a row match)` : 'shadowing';
  const since = state.since ? ` since ${state.since}` : '';
  switch (state.state) {
    case 'serving':
      return 'served by v1gate (SHADOW_SERVE_WRITES): the primary is not called';
    case 'promoted':
      return `promoted${since}: v1gate answers, ${state.streak} compared calls in a row matched`;
    case 'shadowing': {
      const last = state.lastDifference ? `; last real difference in ${state.lastDifference.field} at ${state.lastDifference.at}` : '';
      const progress =
        promoteAfter > 0
          ? `${Math.min(state.streak, promoteAfter)} of ${promoteAfter} calls in a row matched`
          : `${state.streak} calls in a row matched`;
      return `shadowing: ${progress}${last}`;
    }
  }
}
