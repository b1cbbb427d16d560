import { readFileSync } from 'node:fs';

/**
 * A file of JSON lines (a gateway's log file, the sandbox's traffic log, a recorded sample), each
 * line parsed; blank lines skipped. The caller names the lines' type: nothing here checks it.
 */
export function readJsonLines<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}
