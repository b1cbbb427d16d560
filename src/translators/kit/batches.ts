/** `items` cut into batches of at most `size`, in order: v2 takes at most so many ids, members or panelists per call. */
export function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}
