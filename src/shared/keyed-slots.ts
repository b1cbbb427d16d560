/**
 * At most `max` slots held per key at once: `take` answers the slot's release, or undefined when
 * the key holds all of its own. A key's count is dropped with its last release, so the map holds
 * only keys with something in progress. A release called twice releases once.
 */
export class KeyedSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly max: number) {}

  take(key: string): (() => void) | undefined {
    const count = this.held.get(key) ?? 0;
    if (count >= this.max) return undefined;
    this.held.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left === 0) this.held.delete(key);
      else this.held.set(key, left);
    };
  }

  /** The slots `key` holds now. */
  heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** How many keys hold a slot now. */
  get keys(): number {
    return this.held.size;
  }
}
