import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util's parseArgs, taking the word after an option that needs a value as that value
 * whatever it looks like: `--secret -x` means the secret `-x` (one random sandbox secret in 64
 * starts with a dash), where parseArgs alone refuses it as "ambiguous". `--secret=-x` works either
 * way. Everything else (unknown options, a missing value) stays parseArgs' to refuse.
 */
export function parseCommandLine<O extends Options>(args: readonly string[], options: O) {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined) {
      joined.push(`--${name}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return parseArgs({ args: joined, options, allowPositionals: true, strict: true });
}
