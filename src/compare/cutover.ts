import { canonicalPath } from '../translators/kit/registry.js';
import type { CutoverStore, StoredCutover } from './cutover-store.js';

/**
 * Shadow mode's progressive cut-over, endpoint by endpoint:
 *
 * - **shadowing**: the primary (the real v1) answers; v1gate's answer is compared behind it. Each
 *   compared call with no real difference lengthens the endpoint's streak; a real difference ends it.
 * - **promoted** (read-only endpoints, automatically): after `promoteAfter` compared calls in a row
 *   with no real difference, v1gate answers the endpoint itself and stops calling the primary, but
 *   for a sample it still compares against it; one real difference demotes it to shadowing at once.
 * - **serving** (writes, only by name: `SHADOW_SERVE_WRITES`): v1gate answers; the primary is never
 *   called (a write cannot be made twice, nor compared). Never automatic, never demoted.
 *
 * The state of each read endpoint is kept in a store (a file, or Redis) as it changes, so a
 * restart neither forgets a promotion nor a demotion. A store written for another primary is ignored.
 */
export type CutoverState = 'shadowing' | 'promoted' | 'serving';

export interface EndpointCutover {
  endpoint: string;
  state: CutoverState;
  /** Compared calls in a row with no real difference, since the last one (or since records began). */
  streak: number;
  /** When the endpoint entered its state (ISO); undefined for one never compared. */
  since?: string | undefined;
  /** The last real difference: when, and in which field. */
  lastDifference?: { at: string; field: string } | undefined;
}

export interface CutoverOptions {
  /** The primary the states are about: a store written for another is not read. */
  primary: string;
  /** Compared calls in a row with no real difference that promote a read; 0: never automatically. */
  promoteAfter: number;
  /** The writes v1gate answers itself (canonical paths). */
  serveWrites: ReadonlySet<string>;
  isRead(path: string): boolean;
  /** Whether v1gate serves the path at all (a path it does not serve is always forwarded). */
  serves(path: string): boolean;
  store?: CutoverStore | undefined;
  now?: () => Date;
  /** How often a changed streak is written (a promotion or demotion is written at once); default 1 s. */
  saveEveryMs?: number;
}

/** What to do with one call of an endpoint. */
export type CallRoute = 'forward' | 'serve';

export class Cutover {
  private readonly states = new Map<string, StoredCutover>();
  private dirty = false;
  private saving: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => Date;

  constructor(private readonly options: CutoverOptions) {
    this.now = options.now ?? (() => new Date());
    this.timer = setInterval(() => void this.flush(), options.saveEveryMs ?? 1_000);
    this.timer.unref();
  }

  /**
   * Takes up the states its store kept (for this primary). Until it has, every read is shadowing:
   * the primary answers, the safe side.
   */
  async restore(): Promise<void> {
    const stored = await this.options.store?.load();
    if (!stored || stored.primary !== this.options.primary) return;
    for (const [endpoint, state] of Object.entries(stored.endpoints)) {
      const path = canonicalPath(endpoint);
      if (this.options.isRead(path) && this.options.serves(path) && !this.states.has(path)) this.states.set(path, state);
    }
  }

  /** Who answers a call of `endpoint`: the primary (`forward`), or v1gate itself (`serve`). */
  route(endpoint: string): CallRoute {
    const state = this.stateOf(endpoint);
    return state === 'shadowing' ? 'forward' : 'serve';
  }

  stateOf(endpoint: string): CutoverState {
    if (this.options.serveWrites.has(endpoint)) return 'serving';
    return this.states.get(endpoint)?.state ?? 'shadowing';
  }

  /** A compared call of `endpoint` had no real difference. */
  matched(endpoint: string): void {
    if (!this.options.isRead(endpoint) || !this.options.serves(endpoint)) return;
    const state = this.states.get(endpoint) ?? { state: 'shadowing' as const, streak: 0 };
    state.streak++;
    this.states.set(endpoint, state);
    this.dirty = true;
    const { promoteAfter } = this.options;
    if (state.state === 'shadowing' && promoteAfter > 0 && state.streak >= promoteAfter) {
      state.state = 'promoted';
      state.since = this.now().toISOString();
      void this.flush();
    }
  }

  /** A compared call of `endpoint` differed for real in `field`: its streak ends, and a promoted endpoint is demoted at once. */
  differed(endpoint: string, field: string): void {
    if (!this.options.isRead(endpoint) || !this.options.serves(endpoint)) return;
    const at = this.now().toISOString();
    const before = this.states.get(endpoint);
    const demoted = before?.state === 'promoted';
    this.states.set(endpoint, {
      state: 'shadowing',
      streak: 0,
      since: demoted || !before?.since ? at : before.since,
      lastDifference: { at, field },
    });
    this.dirty = true;
    void this.flush();
  }

  /** Every endpoint with a state: the ones served by name, and every read compared at least once. */
  endpoints(): EndpointCutover[] {
    const list: EndpointCutover[] = [...this.options.serveWrites].map((endpoint) => ({ endpoint, state: 'serving' as const, streak: 0 }));
    for (const [endpoint, state] of this.states) list.push({ endpoint, ...state });
    return list.sort((a, b) => a.endpoint.localeCompare(b.endpoint));
  }

  /** Compared calls in a row that promote a read (0: never automatically). */
  get promoteAfter(): number {
    return this.options.promoteAfter;
  }

  /** Writes the states when they changed since the last write; writes never overlap. */
  flush(): Promise<void> {
    const store = this.options.store;
    if (!store || !this.dirty) return this.saving;
    this.dirty = false;
    const snapshot = { primary: this.options.primary, endpoints: Object.fromEntries([...this.states].map(([k, v]) => [k, { ...v }])) };
    this.saving = this.saving
      .then(() => store.save(snapshot))
      .catch(() => {
        this.dirty = true; // tried again on the next tick
      });
    return this.saving;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await this.options.store?.close();
  }
}
