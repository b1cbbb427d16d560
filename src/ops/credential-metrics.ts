import type { Metric } from 'prom-client';
import type { LocalCheckStats } from '../upstream/auth/local-check.js';
import type { TokenOutcome } from '../upstream/auth/oauth-tokens.js';
import { statsMetric } from './metrics.js';

/**
 * The credential map's counters, read at scrape time: token requests to the OAuth token endpoint
 * by outcome (one per app and hour is the steady state: more means tokens are refused or renewed
 * early), pairs the map refused without any v2 call, and how new pairs were checked.
 */
export function credentialMetrics(
  tokens: () => { requests: Readonly<Record<TokenOutcome, number>> },
  local: () => LocalCheckStats,
): Metric[] {
  return [
    statsMetric(
      'counter',
      'v1gate_v2_token_requests_total',
      'Requests to the OAuth token endpoint for the v2 apps of the credential map, by outcome (issued, refused, rate_limited, unavailable).',
      ['outcome'],
      () => Object.entries(tokens().requests).map(([outcome, value]) => ({ labels: { outcome }, value })),
    ),
    statsMetric(
      'counter',
      'v1gate_credentials_refused_total',
      'v1 calls refused by the credential map without any v2 call, by reason (wrong_secret; unmapped_key with V2_CREDENTIALS_ONLY).',
      ['reason'],
      () => {
        const { refused } = local();
        return [
          { labels: { reason: 'wrong_secret' }, value: refused.wrongSecret },
          { labels: { reason: 'unmapped_key' }, value: refused.unmappedKey },
        ];
      },
    ),
    statsMetric(
      'counter',
      'v1gate_credential_checks_total',
      'Pairs of mapped keys checked for the first time by this process, by how: remembered (proven before, here or at another instance: no hash, no budget), hashed (under the secret-check budget), over_budget (refused, nothing hashed).',
      ['how'],
      () => {
        const { checks } = local();
        return [
          { labels: { how: 'remembered' }, value: checks.remembered },
          { labels: { how: 'hashed' }, value: checks.hashed },
          { labels: { how: 'over_budget' }, value: checks.overBudget },
        ];
      },
    ),
  ];
}
