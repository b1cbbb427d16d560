// autocannon ships no types; the benchmark uses a small part of it (see load.ts).
declare module 'autocannon' {
  const autocannon: (options: Record<string, unknown>) => Promise<any> & { on(event: string, listener: (...args: any[]) => void): void };
  export default autocannon;
}
