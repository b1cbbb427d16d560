/**
 * How much arrival jitter the outbound margin must absorb, measured from the v2 calls themselves.
 *
 * The upstream counts a call when it arrives; we count it when we take its token. The arrival lies
 * somewhere between that take and the answer, so `answer − take` (the call's spread) bounds how
 * late it can have arrived, and the largest recent spread bounds how much a group of arrivals can
 * be compressed against our sends. A call still unanswered counts with its age so far: it may
 * still arrive late.
 *
 * The estimate is trusted only while it rests on fresh evidence. Until `minSamples` calls were
 * answered within the window (at start, after a quiet spell when connections may have closed and
 * the next burst opens new ones) and for `cautiousMs` after an upstream 429 (the estimate was
 * wrong, or someone else spends the key), the whole configured allowance (`ceilingMs`) is absorbed,
 * as the fixed margin always did. The estimate never goes above that ceiling nor below `floorMs`
 * (clock rounding on both sides, and a little room for a call slower than any seen).
 */

export interface ArrivalSpreadOptions {
  /** The most jitter ever absorbed (ms): OUTBOUND_JITTER_MS, used while there is no fresh evidence. */
  ceilingMs: number;
  /** The least jitter absorbed whatever the answers show (ms): OUTBOUND_MIN_JITTER_MS. */
  floorMs: number;
  /** Answers older than this no longer count (ms). */
  windowMs?: number;
  /** Answers within the window needed before the measurement replaces the ceiling. */
  minSamples?: number;
  /** How long an upstream 429 puts the ceiling back (ms). */
  cautiousMs?: number;
  now?: () => number;
}

/** The estimate moves in steps of this many ms, so the buckets derived from it change rarely. */
export const SPREAD_STEP_MS = 5;

const SLOT_MS = 1_000;

interface Slot {
  /** Start of this one-second slot (ms). */
  at: number;
  maxMs: number;
  answers: number;
}

export class ArrivalSpread {
  private readonly ceilingMs: number;
  private readonly floorMs: number;
  private readonly windowMs: number;
  private readonly minSamples: number;
  private readonly cautiousMs: number;
  private readonly now: () => number;
  /** Per-second maxima of the answers in the window, oldest first. */
  private readonly slots: Slot[] = [];
  /** Calls sent and not yet answered, by id, in the order sent (a Map keeps insertion order). */
  private readonly inFlight = new Map<number, number>();
  private nextId = 0;
  private cautiousUntil = -Infinity;

  constructor(options: ArrivalSpreadOptions) {
    this.ceilingMs = options.ceilingMs;
    this.floorMs = Math.min(options.floorMs, options.ceilingMs);
    this.windowMs = options.windowMs ?? 10_000;
    this.minSamples = options.minSamples ?? 5;
    this.cautiousMs = options.cautiousMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** A call's token was taken and the call goes out now; call the returned function when it has its outcome. */
  sent(): () => void {
    const id = this.nextId++;
    const at = this.now();
    this.inFlight.set(id, at);
    return () => {
      if (this.inFlight.delete(id)) this.answered(this.now() - at);
    };
  }

  /** The upstream refused a call with 429: the margin goes back to the full allowance for a while. */
  upstreamRefused(): void {
    this.cautiousUntil = this.now() + this.cautiousMs;
  }

  /** The jitter to absorb now (ms), a multiple of SPREAD_STEP_MS within [floorMs, ceilingMs]. */
  currentMs(): number {
    const now = this.now();
    if (now < this.cautiousUntil) return this.ceilingMs;
    let answers = 0;
    let spread = 0;
    for (const slot of this.slots) {
      if (slot.at + SLOT_MS <= now - this.windowMs) continue;
      answers += slot.answers;
      spread = Math.max(spread, slot.maxMs);
    }
    if (answers < this.minSamples) return this.ceilingMs;
    for (const sentAt of this.inFlight.values()) {
      spread = Math.max(spread, now - sentAt); // the oldest call in flight is the first one
      break;
    }
    const stepped = Math.ceil(Math.max(spread, this.floorMs) / SPREAD_STEP_MS) * SPREAD_STEP_MS;
    return Math.min(this.ceilingMs, stepped);
  }

  private answered(spreadMs: number): void {
    const now = this.now();
    const at = now - (now % SLOT_MS);
    const last = this.slots.at(-1);
    if (last?.at === at) {
      last.maxMs = Math.max(last.maxMs, spreadMs);
      last.answers++;
      return;
    }
    this.slots.push({ at, maxMs: spreadMs, answers: 1 });
    while (this.slots.length > 0 && this.slots[0]!.at + SLOT_MS <= now - this.windowMs) this.slots.shift();
  }
}
