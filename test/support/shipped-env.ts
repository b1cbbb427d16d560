import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** deploy/systemd/v1gate.env.example as systemd's EnvironmentFile= reads it: NAME=value lines, comments skipped. */
export function shippedSystemdEnv(): Record<string, string> {
  const file = fileURLToPath(new URL('../../deploy/systemd/v1gate.env.example', import.meta.url));
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z]/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
