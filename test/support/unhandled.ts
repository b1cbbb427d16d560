import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/**
 * Fails the test during which an error went unhandled in this process (a promise rejected with
 * nobody waiting on it, an exception nobody caught): a stream or exchange abandoned mid-way must
 * have its error handled. Call once at a test file's top level.
 */
export function failOnUnhandled(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
  });
  afterEach(() => {
    expect(unhandled).toEqual([]);
  });
}
