/**
 * Run reads in parallel, and when some fail, answer the failure of the first in argument order
 * (not the first to arrive): which v1 error a call answers must not depend on timing, and the
 * reads are ordered by which check v1 made first (the host before the session, ...).
 */
export async function allInOrder<T extends readonly unknown[]>(reads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(reads);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  // Array.map cannot keep a tuple's element types; the values are in the order and of the types given.
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
