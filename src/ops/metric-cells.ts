import { Counter, Histogram, type CounterConfiguration, type HistogramConfiguration, type MetricValue } from 'prom-client';

/**
 * prom-client's counter and histogram, with each label set's series held in a cell the caller
 * looks up once and keeps (per endpoint, per v2 route) and updates with plain arithmetic. Every
 * `inc(labels)` and `observe(labels, value)` of prom-client checks the label names, builds a string
 * from the labels and looks it up: six times per v1 call of one v2 call, about 3 µs of its CPU at a
 * steady 2,500 calls/s (`npm run bench:profile`). What a scrape reads is the same: the same names,
 * label sets in the order they were first seen, the same numbers (metric-cells.test.ts holds both
 * to prom-client's own output), and `inc`/`observe` with labels still work, through the cells.
 */

type Labels<T extends string> = Partial<Record<T, string | number>>;

/** The key of a label set: its values in the metric's label order (label values never hold `\u0000`'s successor here). */
function keyOf<T extends string>(labelNames: readonly T[], labels: Labels<T>): string {
  let key = '';
  for (const name of labelNames) key += `${labels[name] ?? ''}\u0001`;
  return key;
}

/** The label set in the metric's label order (as prom-client writes the labels it was first given: ours name them in that order). */
function labelsOf<T extends string>(labelNames: readonly T[], labels: Labels<T>): Labels<T> {
  for (const name of Object.keys(labels)) {
    if (!labelNames.includes(name as T))
      throw new Error(`Added label "${name}" is not included in initial labelset: ${JSON.stringify(labelNames)}`);
  }
  const out: Labels<T> = {};
  for (const name of labelNames) if (labels[name] !== undefined) out[name] = labels[name];
  return out;
}

/** What a scrape writes beside the values, as prom-client keeps it (its typings do not show these fields). */
interface Meta {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: string;
  collect: ((this: unknown) => void | Promise<void>) | undefined;
}

function metaOf(config: { name: string; help: string; aggregator?: string; collect?: unknown }, type: Meta['type']): Meta {
  return { name: config.name, help: config.help, type, aggregator: config.aggregator ?? 'sum', collect: config.collect as Meta['collect'] };
}

/** The label set of `remove` or `labels`: an object, or the values in label order. */
function labelSetOf<T extends string>(labelNames: readonly T[], args: readonly unknown[]): Labels<T> {
  if (typeof args[0] === 'object' && args[0] !== null) return args[0];
  return Object.fromEntries(labelNames.map((name, i) => [name, args[i]])) as Labels<T>;
}

/** One series of a CellCounter. */
export class CounterCell<T extends string> {
  value = 0;
  constructor(readonly labels: Labels<T>) {}

  inc(by = 1): void {
    if (!(by >= 0) || !Number.isFinite(by)) throw new Error(`Counter increments must be finite and not negative: ${by}`);
    this.value += by;
  }
}

export class CellCounter<T extends string> extends Counter<T> {
  // Made by `reset`, which prom-client's constructor calls before this class's fields would be set.
  declare private cells: Map<string, CounterCell<T>>;
  readonly #meta: Meta;
  readonly #labelNames: readonly T[];

  constructor(config: CounterConfiguration<T>) {
    super(config);
    this.#labelNames = config.labelNames ?? [];
    this.#meta = metaOf(config, 'counter');
    // Counter sets `inc` on each instance in its constructor: replaced here so every increment lands in a cell.
    (this as { inc: unknown }).inc = (labelsOrBy?: Labels<T> | number, by?: number) =>
      typeof labelsOrBy === 'object' ? this.cell(labelsOrBy).inc(by) : this.cell({}).inc(labelsOrBy);
  }

  /** The series of `labels`, made on first use: keep it, and `inc()` it. */
  cell(labels: Labels<T>): CounterCell<T> {
    const key = keyOf(this.#labelNames, labels);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = new CounterCell(labelsOf(this.#labelNames, labels))));
    return cell;
  }

  override reset(): void {
    this.cells = new Map();
  }

  override remove(...labels: unknown[]): void {
    this.cells.delete(keyOf(this.#labelNames, labelSetOf(this.#labelNames, labels)));
  }

  override async get(): Promise<MetricObjectOf<T>> {
    const { name, help, type, aggregator, collect } = this.#meta;
    if (collect) await collect.call(this);
    const values = [...this.cells.values()].map((cell) => ({ value: cell.value, labels: { ...cell.labels } }));
    return { help, name, type, values, aggregator } as unknown as MetricObjectOf<T>;
  }
}

type MetricObjectOf<T extends string> = Awaited<ReturnType<Counter<T>['get']>>;
type HistogramObjectOf<T extends string> = Awaited<ReturnType<Histogram<T>['get']>>;

/** One series of a CellHistogram: a count per bucket (not yet cumulative), the sum and the count. */
export class HistogramCell<T extends string> {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Labels<T>,
    private readonly upperBounds: readonly number[],
  ) {
    this.counts = new Float64Array(upperBounds.length);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.upperBounds;
    // The first bucket it fits in, as prom-client finds it; above the last bound, only +Inf (the count) holds it.
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count += 1;
  }
}

type BucketValue<T extends string> = MetricValue<T> & { metricName: string; sharedLabels?: Labels<T>; exemplar?: null | undefined };

export class CellHistogram<T extends string> extends Histogram<T> {
  // Made by `reset`, which prom-client's constructor calls before this class's fields would be set.
  declare private cells: Map<string, HistogramCell<T>>;
  readonly #meta: Meta;
  readonly #labelNames: readonly T[];
  readonly #bounds: readonly number[];

  constructor(config: HistogramConfiguration<T> & { buckets: number[] }) {
    super(config);
    this.#labelNames = config.labelNames ?? [];
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
    this.#meta = metaOf(config, 'histogram');
    (this as { observe: unknown }).observe = (labelsOrValue: Labels<T> | number, value?: number) =>
      typeof labelsOrValue === 'object' ? this.cell(labelsOrValue).observe(value!) : this.cell({}).observe(labelsOrValue);
  }

  /** The series of `labels`, made on first use: keep it, and `observe(value)` it. */
  cell(labels: Labels<T>): HistogramCell<T> {
    const key = keyOf(this.#labelNames, labels);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = new HistogramCell(labelsOf(this.#labelNames, labels), this.#bounds)));
    return cell;
  }

  override reset(): void {
    this.cells = new Map();
  }

  override remove(...labels: unknown[]): void {
    this.cells.delete(keyOf(this.#labelNames, labelSetOf(this.#labelNames, labels)));
  }

  override zero(labels: Labels<T>): void {
    this.cell(labels);
  }

  override labels(...labels: unknown[]): ReturnType<Histogram<T>['labels']> {
    const cell = this.cell(labelSetOf(this.#labelNames, labels));
    return {
      observe: (value: number) => cell.observe(value),
      startTimer: (more?: Labels<T>) => this.startTimer({ ...cell.labels, ...more }),
    };
  }

  /** As prom-client's: each series' cumulative buckets with `le`, then +Inf, the sum and the count, the series' labels beside. */
  async getForPromString(): Promise<HistogramObjectOf<T>> {
    const { name, help, type, aggregator, collect } = this.#meta;
    if (collect) await collect.call(this);
    const values: BucketValue<T>[] = [];
    const bucketName = `${name}_bucket`;
    for (const cell of this.cells.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.#bounds.length; i++) {
        cumulative += cell.counts[i]!;
        values.push({
          labels: { le: this.#bounds[i] } as never,
          value: cumulative,
          metricName: bucketName,
          exemplar: null,
          sharedLabels: cell.labels,
        });
      }
      values.push(
        { labels: { le: '+Inf' } as never, value: cell.count, metricName: bucketName, exemplar: null, sharedLabels: cell.labels },
        { labels: {}, value: cell.sum, metricName: `${name}_sum`, exemplar: undefined, sharedLabels: cell.labels },
        { labels: {}, value: cell.count, metricName: `${name}_count`, exemplar: undefined, sharedLabels: cell.labels },
      );
    }
    return { name, help, type, values, aggregator } as unknown as HistogramObjectOf<T>;
  }

  override async get(): Promise<HistogramObjectOf<T>> {
    const data = await this.getForPromString();
    // The series' labels after `le`, on each value: as prom-client's `get` answers them (what a cluster's primary merges).
    data.values = (data.values as BucketValue<T>[]).map(({ sharedLabels, labels, ...value }) => ({
      ...value,
      labels: Object.assign(labels, sharedLabels),
    }));
    return data;
  }
}
