import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The offline SDK's browser script, meeting-sdk.js, read once from disk. It is a plain .js file
 * beside this module in src/; `tsc` does not copy it to dist/, so a compiled gateway
 * (dist/src/sandbox/sdk/script.js) reads it from the source folder four levels up instead.
 */
const CANDIDATES = [new URL('./meeting-sdk.js', import.meta.url), new URL('../../../../src/sandbox/sdk/meeting-sdk.js', import.meta.url)];

let cached: string | undefined;

export function meetingSdkScript(): string {
  if (cached === undefined) {
    const found = CANDIDATES.map((url) => fileURLToPath(url)).find((path) => existsSync(path));
    if (!found) throw new Error(`meeting-sdk.js not found (looked at ${CANDIDATES.map((u) => fileURLToPath(u)).join(', ')})`);
    cached = readFileSync(found, 'utf8');
  }
  return cached;
}
