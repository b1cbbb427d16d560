// autocannon ships no types; the benchmark uses a small part of it (see load.ts).
declare module 'autocannon' {
  /** The part of autocannon's result the benchmark reads. */
  export interface Result {
    requests: { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  const autocannon: (
    options: Record<string, unknown>,
  ) => Promise<Result> & { on(event: string, listener: (...args: never[]) => void): void };
  export default autocannon;
}
