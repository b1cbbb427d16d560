import type { ShadowStats } from '../compare/shadow.js';
import type { FailoverStats, RateLimiters } from '../ratelimit/index.js';
import type { WebhookStats } from '../webhooks/index.js';

/**
 * The status page's state sections, in words an operator reads without knowing the metric names:
 * the rate limits, the v1 push notifications, shadow mode, and any section another part provides
 * (the cut-over state). Each says how things stand (`level`, coloured on the page), in one line,
 * then the detail as label and value.
 */

export type Level = 'ok' | 'warn' | 'bad' | 'idle';

export interface StatusSection {
  /** Stable, for the page's DOM (`data-section`) and tests. */
  id: string;
  title: string;
  level: Level;
  summary: string;
  rows: { label: string; value: string; level?: Level }[];
}

/** Where the colours change; the page colours live numbers with the same ones. The alerts in deploy/prometheus/ fire at `bad`. */
export const THRESHOLDS = {
  /** v1 calls answered with any v1 error. */
  errorRatio: { warn: 0.05, bad: 0.2 },
  /** v1 calls answered "unavailable" (v2 down or timed out). */
  unavailableRatio: { warn: 0.01, bad: 0.05 },
  p99Seconds: { warn: 1, bad: 5 },
  /** Compared shadow calls that differ from the real v1. */
  shadowMismatchRatio: { warn: 0.005, bad: 0.01 },
} as const;

export type Threshold = { warn: number; bad: number };

export function levelOf(value: number | undefined, threshold: Threshold): Level {
  if (value === undefined || Number.isNaN(value)) return 'idle';
  return value >= threshold.bad ? 'bad' : value >= threshold.warn ? 'warn' : 'ok';
}

const WORST: Level[] = ['bad', 'warn', 'ok', 'idle'];
const worstOf = (...levels: Level[]): Level => WORST.find((l) => levels.includes(l)) ?? 'idle';

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const percent = (ratio: number) => `${(100 * ratio).toFixed(1)} %`;
/** `light 10, heavy 2`, largest first; `none` when empty. */
const breakdown = (rows: { name: string; n: number }[]) =>
  rows.length === 0
    ? 'none'
    : rows
        .sort((a, b) => b.n - a.n)
        .map((r) => `${r.name} ${r.n.toLocaleString('en-US')}`)
        .join(', ');

export interface LimiterState {
  limiters: RateLimiters;
  v1Enabled: boolean;
  v2Enabled: boolean;
  /** Where the buckets live: this process, Redis, or the primary of WORKERS>1. */
  store: 'memory' | 'redis' | 'primary';
  /** The shared store's failover (absent in memory). */
  failover: { stats: FailoverStats } | undefined;
  policy: 'open' | 'closed' | undefined;
}

export function limiterSection(state: LimiterState): StatusSection {
  const { inbound, outbound } = state.limiters;
  const v1Refusals = inbound.refusals();
  const v2 = outbound.stats(0);
  const v1Refused = v1Refusals.reduce((sum, r) => sum + r.count, 0);
  const v2Refused = v2.refusals.reduce((sum, r) => sum + r.count, 0);
  const waiting = v2.queueDepth.reduce((sum, q) => sum + q.waiting, 0);
  const waits = v2.waits.reduce((sum, w) => sum + w.waits, 0);
  const waitedMs = v2.waits.reduce((sum, w) => sum + w.waitedMs, 0);
  const degraded = state.failover?.stats.degraded ?? false;
  const storeName = state.store === 'redis' ? 'Redis' : 'the primary process';
  const store =
    state.store === 'memory'
      ? { text: "kept in this process's memory", level: 'ok' as Level }
      : degraded
        ? {
            text:
              state.policy === 'closed'
                ? `${storeName} is unreachable: failing closed, every call refused`
                : `${storeName} is unreachable: failing open, limits kept per process`,
            level: 'bad' as Level,
          }
        : { text: `shared through ${storeName}, reachable`, level: 'ok' as Level };
  const on = [state.v1Enabled && 'v1', state.v2Enabled && 'v2'].filter(Boolean).join(' and ');
  const summary = `${on ? `${on} limits on` : 'Limits off (V1_RATE_LIMITS, V2_RATE_LIMITS)'}; ${store.text}.`;
  return {
    id: 'limits',
    title: 'Rate limits',
    level: worstOf(store.level, v2Refused > 0 ? 'warn' : 'ok'),
    summary,
    rows: [
      {
        label: 'v1 calls refused (over their v1 limits)',
        value: `${v1Refused.toLocaleString('en-US')}${v1Refused ? ` (${breakdown(v1Refusals.map((r) => ({ name: r.limitClass, n: r.count })))})` : ''}`,
      },
      {
        label: 'v2 calls v1gate gave up on (over v2 limits)',
        value: `${v2Refused.toLocaleString('en-US')}${v2Refused ? ` (${breakdown(v2.refusals.map((r) => ({ name: `${r.limitClass} ${r.reason}`, n: r.count })))})` : ''}`,
        level: v2Refused > 0 ? 'warn' : 'ok',
      },
      { label: 'v2 calls waiting for a token now', value: waiting.toLocaleString('en-US') },
      {
        label: 'v2 calls that waited for a token',
        value: waits ? `${count(waits, 'call')}, ${(waitedMs / waits).toFixed(0)} ms on average` : 'none',
      },
      { label: 'Where the limits are kept', value: store.text, level: store.level },
      ...(state.failover ? [{ label: 'Shared store errors', value: state.failover.stats.failures.toLocaleString('en-US') }] : []),
    ],
  };
}

export function webhookSection(stats: WebhookStats, deadLetters: number): StatusSection {
  const receivers = Object.entries(stats.receiverQueueDepth).filter(([, n]) => n > 0);
  const level: Level = deadLetters > 0 ? 'bad' : stats.journalDepth > 0 ? 'warn' : stats.deliveries > 0 ? 'ok' : 'idle';
  const summary =
    deadLetters > 0
      ? `${count(deadLetters, 'notification')} given up after every attempt: replay below once the receiver is fixed.`
      : stats.journalDepth > 0
        ? `${count(stats.journalDepth, 'notification')} waiting to be delivered.`
        : stats.deliveries > 0
          ? 'Every notification delivered.'
          : 'Nothing to deliver yet.';
  return {
    id: 'webhooks',
    title: 'v1 push notifications',
    level,
    summary,
    rows: [
      { label: 'Delivered since start', value: stats.deliveries.toLocaleString('en-US') },
      { label: 'Attempts retried since start', value: stats.retries.toLocaleString('en-US') },
      {
        label: 'Dead-lettered since start',
        value: stats.deadLetters.toLocaleString('en-US'),
        level: stats.deadLetters > 0 ? 'warn' : 'ok',
      },
      { label: 'Dead letters held now', value: deadLetters.toLocaleString('en-US'), level: deadLetters > 0 ? 'bad' : 'ok' },
      { label: 'Waiting in the journal', value: stats.journalDepth.toLocaleString('en-US') },
      {
        label: 'Queued per receiver',
        value: breakdown(receivers.map(([url, n]) => ({ name: hostOf(url), n }))),
      },
    ],
  };
}

/** Notifications are delivered by another process (the primary of WORKERS>1 owns the file journal). */
export function webhooksElsewhereSection(): StatusSection {
  return {
    id: 'webhooks',
    title: 'v1 push notifications',
    level: 'idle',
    summary: 'Delivered by the primary process, which owns the journal: list and replay dead letters with `npm run webhooks`.',
    rows: [],
  };
}

export function shadowSection(stats: ShadowStats): StatusSection {
  const ratio = stats.compared > 0 ? stats.mismatchedCalls / stats.compared : undefined;
  const level = stats.compared > 0 ? levelOf(ratio, THRESHOLDS.shadowMismatchRatio) : 'idle';
  const fields = [...stats.mismatches].sort((a, b) => b.count - a.count).slice(0, 5);
  return {
    id: 'shadow',
    title: 'Shadow mode',
    level,
    summary:
      ratio === undefined
        ? 'Forwarding to the real v1; nothing compared yet.'
        : ratio === 0
          ? `Every one of ${count(stats.compared, 'compared call')} matched the real v1.`
          : `${percent(ratio)} of ${count(stats.compared, 'compared call')} differ from the real v1: see /shadow/report.`,
    rows: [
      { label: 'Forwarded to the real v1', value: stats.forwarded.toLocaleString('en-US') },
      { label: 'Compared with v1gate', value: stats.compared.toLocaleString('en-US') },
      { label: 'Differing', value: `${stats.mismatchedCalls.toLocaleString('en-US')}${ratio ? ` (${percent(ratio)})` : ''}`, level },
      {
        label: 'Not compared: queue full / limited / failed / answer too large',
        value: `${stats.dropped} / ${stats.limited} / ${stats.errors} / ${stats.tooLarge}`,
      },
      { label: 'Answers cut short', value: stats.interrupted.toLocaleString('en-US') },
      { label: 'Fields differing most', value: breakdown(fields.map((m) => ({ name: `${m.endpoint} ${m.field}`, n: m.count }))) },
    ],
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'other';
  }
}
