import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { V2Route } from '../v2-contract/v2-route.js';
import { CellCounter, CellHistogram, type CounterCell, type HistogramCell } from './metric-cells.js';
import type { CallObserver, OwnTimeObserver, V1CallRecord } from '../v1-steps/observe.js';
import { BusiestKeys } from './busiest-keys.js';
import { pairProven } from './pair-proven.js';

export { keyHash } from './key-hash.js';

/**
 * The gateway's Prometheus registry and the call observer that feeds it. One registry per gateway
 * (tests run several in one process); in a cluster the primary would merge the workers' registries
 * with prom-client's AggregatorRegistry, which is why every metric here is a plain prom-client one.
 */

export interface GatewayMetricsOptions {
  /** METRICS_PER_KEY=1: also count v1 calls by a short hash of the api_key, for the `top` busiest proven keys. */
  perKey: { top: number; windowMs?: number; now?: () => number } | undefined;
  /** Process metrics (cpu, memory, event loop); off in tests that start many gateways. */
  processMetrics?: boolean;
}

/** Labels for calls that matched no endpoint (unknown paths): one label, not the raw path. */
export const UNMATCHED_ENDPOINT = 'unmatched';
export const SUCCESS_CODE = 'ok';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** v1gate's own time per call is a fraction of a millisecond when all is well: its buckets start at 50 µs. */
const ADDED_LATENCY_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1];

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly v1Calls: CellCounter<'endpoint' | 'code'>;
  private readonly v1Duration: CellHistogram<'endpoint'>;
  private readonly v2Calls: CellCounter<'route' | 'method' | 'status'>;
  private readonly v2Duration: CellHistogram<'route' | 'method'>;
  private readonly v2PerV1: CellHistogram<'endpoint'>;
  private readonly v2RateLimited: Counter<'kind'>;
  private readonly addedLatency: CellHistogram<'endpoint'>;
  /** Each endpoint's series, found once per call by one lookup (src/ops/metric-cells.ts says why). */
  private readonly byEndpoint = new Map<string, EndpointSeries>();
  /** Each v2 route's and method's series, by the route (one object per route, made once: src/v2-contract/v2-routes.ts). */
  private readonly byRoute = new Map<V2Route, Map<string, RouteSeries>>();
  private readonly v1CallsByKey: Counter<'key_hash'> | undefined;
  /** With METRICS_PER_KEY: which keys have a series of their own (the limiter's queue gauge asks it too). */
  readonly busiestKeys: BusiestKeys | undefined;

  constructor(options: GatewayMetricsOptions) {
    const registers = [this.registry];
    this.v1Calls = new CellCounter({
      name: 'v1gate_v1_calls_total',
      help: 'v1 calls answered, by endpoint and v1 result (ok or the v1 error code).',
      labelNames: ['endpoint', 'code'],
      registers,
    });
    this.v1Duration = new CellHistogram({
      name: 'v1gate_v1_call_duration_seconds',
      help: 'Time from a v1 request arriving to its serialised answer.',
      labelNames: ['endpoint'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.v2Calls = new CellCounter({
      name: 'v1gate_v2_calls_total',
      help: 'v2 calls sent, by route template, method and HTTP status (0: no answer).',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.v2Duration = new CellHistogram({
      name: 'v1gate_v2_call_duration_seconds',
      help: 'v2 call latency as the gateway saw it, by route template and method.',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.v2RateLimited = new Counter({
      name: 'v1gate_v2_rate_limited_total',
      help: 'v2 answers 429, by whose limit it met (account, user-daily, resource, concurrency; unknown: a text v1gate does not know, held back no longer than its own Retry-After).',
      labelNames: ['kind'],
      registers,
    });
    this.v2PerV1 = new CellHistogram({
      name: 'v1gate_v2_calls_per_v1_call',
      help: 'How many v2 calls one v1 call made.',
      labelNames: ['endpoint'],
      buckets: [0, 1, 2, 3, 5, 8, 13, 21],
      registers,
    });
    this.addedLatency = new CellHistogram({
      name: 'v1gate_added_latency_seconds',
      help: "v1gate's own time per v1 call: from its request read to its answer's last byte written, less its waits on v2 answers and outbound tokens.",
      labelNames: ['endpoint'],
      buckets: ADDED_LATENCY_BUCKETS,
      registers,
    });
    if (options.perKey) {
      const busiest = new BusiestKeys({ slots: options.perKey.top, windowMs: options.perKey.windowMs, now: options.perKey.now });
      const byKey = new Counter({
        name: 'v1gate_v1_calls_by_key_total',
        help: 'v1 calls by a 12-character SHA-256 prefix of the api_key, for the busiest keys whose secret was proven; every other call under key_hash="other" (METRICS_PER_KEY=1).',
        labelNames: ['key_hash'],
        registers,
        collect() {
          busiest.rebalanceIfDue();
        },
      });
      busiest.onRebalance(({ lost, won }) => {
        for (const hash of lost) byKey.remove({ key_hash: hash });
        for (const hash of won) byKey.inc({ key_hash: hash }, 0);
      });
      this.busiestKeys = busiest;
      this.v1CallsByKey = byKey;
    }
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'v1gate_' });
  }

  /** The facade observer: every answered v1 call lands here. */
  readonly observer: CallObserver = (record: V1CallRecord) => {
    const series = this.endpointSeries(record.endpoint ?? UNMATCHED_ENDPOINT);
    series.calls(record.errorCode).inc();
    series.duration.observe(record.ms / 1000);
    series.v2PerV1.observe(record.v2Calls.length);
    for (const call of record.v2Calls) {
      const route = this.routeSeries(call.route, call.method);
      route.calls(call.status).inc();
      route.duration.observe(call.ms / 1000);
      if (call.limitKind !== undefined) this.v2RateLimited.inc({ kind: call.limitKind });
    }
    if (this.v1CallsByKey && this.busiestKeys)
      this.v1CallsByKey.inc({ key_hash: this.busiestKeys.callLabel(record.apiKey, pairProven(record)) });
  };

  /** The facade's own-time observer: each call's own time, once its answer is written. */
  readonly ownTimeObserver: OwnTimeObserver = (endpoint, seconds) => {
    this.endpointSeries(endpoint ?? UNMATCHED_ENDPOINT).addedLatency.observe(seconds);
  };

  private endpointSeries(endpoint: string): EndpointSeries {
    let series = this.byEndpoint.get(endpoint);
    if (!series) {
      series = new EndpointSeries(endpoint, {
        calls: this.v1Calls,
        duration: this.v1Duration,
        v2PerV1: this.v2PerV1,
        addedLatency: this.addedLatency,
      });
      this.byEndpoint.set(endpoint, series);
    }
    return series;
  }

  private routeSeries(v2Route: V2Route, method: string): RouteSeries {
    let byMethod = this.byRoute.get(v2Route);
    if (!byMethod) this.byRoute.set(v2Route, (byMethod = new Map<string, RouteSeries>()));
    let series = byMethod.get(method);
    if (!series) {
      // The route's template (`/users/{userId}`): a bounded label, never an id from the path.
      const route = v2Route.template;
      const { v2Calls } = this;
      const byStatus = new Map<number, CounterCell<'route' | 'method' | 'status'>>();
      series = {
        calls: (status) => {
          let cell = byStatus.get(status);
          if (!cell) byStatus.set(status, (cell = v2Calls.cell({ route, method, status: String(status) })));
          return cell;
        },
        duration: this.v2Duration.cell({ route, method }),
      };
      byMethod.set(method, series);
    }
    return series;
  }

  /**
   * Adds a metric that another part reads at scrape time (webhook deliveries, shadow mismatches,
   * limiter queue depths): build it with `statsMetric`, which reads a `stats()` snapshot, then
   * register it here.
   */
  registerCollector(metric: Metric): void {
    this.registry.registerMetric(metric);
  }

  /**
   * The v1 and v2 call counters and latency buckets as they stand, for the status page's tables
   * and history: the same numbers /metrics exposes, read from the same metrics.
   */
  async traffic(): Promise<TrafficSnapshot> {
    const [v1Calls, v1Duration, v2Calls, v2Duration] = await Promise.all([
      this.v1Calls.get(),
      this.v1Duration.get(),
      this.v2Calls.get(),
      this.v2Duration.get(),
    ]);
    const snapshot: TrafficSnapshot = { v1: new Map(), v1Buckets: new Map(), v2: new Map(), v2Buckets: new Map() };
    for (const { labels, value } of v1Calls.values) {
      const codes = mapIn(snapshot.v1, String(labels.endpoint), () => new Map<string, number>());
      codes.set(String(labels.code), (codes.get(String(labels.code)) ?? 0) + value);
    }
    for (const { labels, value } of v2Calls.values) {
      const route = mapIn(snapshot.v2, `${labels.method} ${labels.route}`, () => ({
        route: String(labels.route),
        method: String(labels.method),
        byStatus: new Map<string, number>(),
      }));
      route.byStatus.set(String(labels.status), (route.byStatus.get(String(labels.status)) ?? 0) + value);
    }
    readBuckets(v1Duration.values, (labels) => String(labels.endpoint), snapshot.v1Buckets);
    readBuckets(v2Duration.values, (labels) => `${labels.method} ${labels.route}`, snapshot.v2Buckets);
    return snapshot;
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * An endpoint's series of the call metrics, each made when first fed, as prom-client made a series
 * on its first observation: a scrape lists only what happened.
 */
class EndpointSeries {
  readonly #byCode = new Map<number | undefined, CounterCell<'endpoint' | 'code'>>();
  #duration: HistogramCell<'endpoint'> | undefined;
  #v2PerV1: HistogramCell<'endpoint'> | undefined;
  #addedLatency: HistogramCell<'endpoint'> | undefined;

  constructor(
    private readonly endpoint: string,
    private readonly metrics: {
      calls: CellCounter<'endpoint' | 'code'>;
      duration: CellHistogram<'endpoint'>;
      v2PerV1: CellHistogram<'endpoint'>;
      addedLatency: CellHistogram<'endpoint'>;
    },
  ) {}

  /** The calls counted under their v1 result: `ok` (undefined) or the v1 error code. */
  calls(errorCode: number | undefined): CounterCell<'endpoint' | 'code'> {
    let cell = this.#byCode.get(errorCode);
    if (!cell) {
      const code = errorCode === undefined ? SUCCESS_CODE : String(errorCode);
      this.#byCode.set(errorCode, (cell = this.metrics.calls.cell({ endpoint: this.endpoint, code })));
    }
    return cell;
  }

  get duration(): HistogramCell<'endpoint'> {
    return (this.#duration ??= this.metrics.duration.cell({ endpoint: this.endpoint }));
  }

  get v2PerV1(): HistogramCell<'endpoint'> {
    return (this.#v2PerV1 ??= this.metrics.v2PerV1.cell({ endpoint: this.endpoint }));
  }

  get addedLatency(): HistogramCell<'endpoint'> {
    return (this.#addedLatency ??= this.metrics.addedLatency.cell({ endpoint: this.endpoint }));
  }
}

/** A v2 route's and method's series. */
interface RouteSeries {
  /** The calls counted under their HTTP status (0: no answer). */
  calls(status: number): CounterCell<'route' | 'method' | 'status'>;
  readonly duration: HistogramCell<'route' | 'method'>;
}

/** Cumulative latency buckets (`le` in seconds, Infinity for +Inf), as a histogram exposes them. */
export type Buckets = { le: number; count: number }[];

/** The call counters at one moment (see `GatewayMetrics.traffic`). */
export interface TrafficSnapshot {
  /** v1 endpoint → result label (`ok` or the v1 code) → calls. */
  v1: Map<string, Map<string, number>>;
  /** v1 endpoint → its latency buckets. */
  v1Buckets: Map<string, Buckets>;
  /** `METHOD /route/{template}` → the route, and its calls by HTTP status (0: no answer). */
  v2: Map<string, { route: string; method: string; byStatus: Map<string, number> }>;
  /** `METHOD /route/{template}` → its latency buckets. */
  v2Buckets: Map<string, Buckets>;
}

function mapIn<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

type HistogramValue = { labels: Record<string, string | number | undefined>; value: number; metricName?: string };

function readBuckets(
  values: readonly HistogramValue[],
  keyOf: (labels: HistogramValue['labels']) => string,
  into: Map<string, Buckets>,
): void {
  for (const value of values) {
    if (!value.metricName?.endsWith('_bucket')) continue;
    const le = value.labels.le;
    mapIn(into, keyOf(value.labels), () => []).push({ le: le === '+Inf' ? Infinity : Number(le), count: value.value });
  }
}

/** histogram_quantile over cumulative buckets: linear within the bucket the rank falls in. */
export function quantileOfBuckets(q: number, cumulative: readonly { le: number; count: number }[]): number | undefined {
  const sorted = [...cumulative].sort((a, b) => a.le - b.le);
  const total = sorted.at(-1)?.count ?? 0;
  if (total === 0) return undefined;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bucket of sorted) {
    if (bucket.count >= rank) {
      // Above the highest finite bound: answer that bound, as Prometheus does.
      if (bucket.le === Infinity) return lowerBound;
      const inBucket = bucket.count - lowerCount;
      return inBucket === 0 ? bucket.le : lowerBound + ((bucket.le - lowerBound) * (rank - lowerCount)) / inBucket;
    }
    lowerBound = bucket.le;
    lowerCount = bucket.count;
  }
  return lowerBound;
}

/** One row a `stats()` snapshot answers: a label set and its number. */
export type StatsRow<L extends string> = { labels: Partial<Record<L, string>>; value: number };

/**
 * A metric whose numbers are kept elsewhere, read from a `stats()` snapshot at each scrape: the
 * path that counts pays nothing for Prometheus. `read` answers one number per label set; register
 * the result with `registerCollector`.
 * - `'gauge'`: a level now (journal depth, queue depths).
 * - `'counter'`: a running total since start (deliveries, refusals, mismatches), typed `counter`
 *   so `rate()` and `increase()` read it as one.
 */
export function statsMetric<L extends string>(
  type: 'counter' | 'gauge',
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => readonly StatsRow<L>[],
): Metric<L> {
  const config = { name, help, labelNames, registers: [] };
  if (type === 'gauge')
    return new Gauge<L>({
      ...config,
      collect() {
        this.reset();
        for (const row of read()) this.set(row.labels, row.value);
      },
    });
  return new Counter<L>({
    ...config,
    collect() {
      this.reset();
      for (const row of read()) this.inc(row.labels, row.value);
    },
  });
}
