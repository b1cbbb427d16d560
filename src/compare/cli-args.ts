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

/** Where the replay's api_secret came from, or why it could not be read. */
export type SecretSource = { secret: string | undefined; warning?: string } | { problem: string };

/**
 * The api_secret for replayed calls: `--secret-file` (its first line), else V1_API_SECRET, else
 * `--secret`, which still works but is warned about: a command line is seen by anyone who can list
 * processes, and `npm run` echoes it into the terminal and any log of it.
 */
export function replaySecret(
  values: { secret?: string | undefined; 'secret-file'?: string | undefined },
  env: Record<string, string | undefined>,
  readText: (file: string) => string,
): SecretSource {
  const file = values['secret-file'];
  if (file !== undefined && values.secret !== undefined) return { problem: 'give --secret-file or --secret, not both' };
  if (file !== undefined) {
    let text: string;
    try {
      text = readText(file);
    } catch (error) {
      return { problem: `--secret-file ${file} cannot be read (${(error as { code?: string }).code ?? 'error'})` };
    }
    const secret = text.split(/\r?\n/, 1)[0]!.trim();
    return secret ? { secret } : { problem: `--secret-file ${file}: its first line is empty` };
  }
  if (values.secret !== undefined) {
    return {
      secret: values.secret,
      warning: 'warning: --secret shows the secret to anyone who lists processes, and npm echoes it: use V1_API_SECRET or --secret-file',
    };
  }
  return { secret: env.V1_API_SECRET || undefined };
}
