import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { secretsIn } from '../../src/shared/secrets.js';
import { rememberSecret } from './gateway.js';

/**
 * Every secret a test saw, to grep the files it made for: the api_secrets it sent and every token
 * the answers it got carried (`token`, `zak`, `?zak=` in a `start_url`, `?tk=` in a `join_url`).
 * Each is also told to the suite's log audit (test/support/global-setup.ts), so no gateway's log
 * line anywhere may hold it either.
 */
export class SecretsSeen {
  readonly values = new Set<string>();

  add(...secrets: string[]): this {
    for (const secret of secrets) {
      if (this.values.has(secret)) continue;
      this.values.add(secret);
      rememberSecret(secret);
    }
    return this;
  }

  /** The secrets an answer carries, by name (as a v1 answer object, or its text). */
  from(answer: unknown): this {
    return this.add(...secretsIn(answer));
  }

  /** None of the secrets is in any of the files, nor in `texts`: the failure names the file, never the secret. */
  expectAbsentFrom(files: readonly string[], texts: Record<string, string> = {}): void {
    const contents = { ...Object.fromEntries(files.map((file) => [file, readFileSync(file, 'utf8')])), ...texts };
    const found: string[] = [];
    for (const [name, text] of Object.entries(contents)) {
      let index = 0;
      for (const secret of this.values) {
        index++;
        if (text.includes(secret) || text.includes(encodeURIComponent(secret))) found.push(`${name} holds secret #${index}`);
      }
    }
    expect(found).toEqual([]);
  }
}
