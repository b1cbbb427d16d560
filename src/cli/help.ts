import { SETTINGS } from '../config.js';
import { settingDescription, type EnvSection } from '../shared/env.js';
import { packageVersion } from '../shared/package-version.js';

/** What `node dist/src/main.js` was asked to do. */
export type Command =
  { run: 'start' } | { run: 'check' } | { run: 'reload' } | { run: 'help' } | { run: 'version' } | { run: 'usage-error'; message: string };

/** The command line: no argument starts the gateway; one of `check`, `reload`, `--help`/`-h`, `--version`/`-v`. */
export function commandOf(args: readonly string[]): Command {
  if (args.length === 0) return { run: 'start' };
  const [first, ...rest] = args;
  const known: Record<string, Command> = {
    check: { run: 'check' },
    reload: { run: 'reload' },
    '--help': { run: 'help' },
    '-h': { run: 'help' },
    help: { run: 'help' },
    '--version': { run: 'version' },
    '-v': { run: 'version' },
  };
  const command = known[first!];
  if (!command) return { run: 'usage-error', message: `unknown command or option: ${first} (try --help)` };
  if (rest.length > 0) return { run: 'usage-error', message: `${first} takes no arguments, got: ${rest.join(' ')}` };
  return command;
}

/** `--help`: the commands, then every setting with what it does, by section. */
export function helpText(): string {
  const lines = [
    `v1gate ${packageVersion()}: legacy v1 REST clients served by the v2 API, in exact v1 shapes.`,
    '',
    'Usage: node dist/src/main.js [command]      (or: npm start -- [command])',
    '',
    '  (no command)   start the gateway: PORT (8080), over V2_BASE_URL or the embedded sandbox',
    '  check          check the configuration without starting: every variable, the files it names,',
    '                 Redis and the v2 service reachable, the port free; exits 1 listing every problem',
    '  reload         SIGUSR2 to the gateway PID_FILE names: V2_CREDENTIALS_FILE is read again',
    '                 (npm run reload; npm itself passes on neither HUP nor USR2)',
    '  --help, -h     this text',
    '  --version, -v  the version',
    '',
    'SIGTERM or SIGINT drains (calls in flight are answered, new ones refused) for at most',
    'SHUTDOWN_GRACE_MS, then stops; a second signal stops at once. SIGUSR2 reads V2_CREDENTIALS_FILE',
    'again. SIGHUP does as ON_SIGHUP says: by default it stops a gateway started by npm or from a',
    'terminal (the terminal hung up) and reloads one run as a service. Logs are JSON lines on',
    'standard output (one readable line each on a terminal), each written within half a second.',
    '',
    'Settings are environment variables (unset or blank: the default):',
  ];
  for (const section of Object.values(SETTINGS)) lines.push('', `${section.title}:`, ...settingLines(section));
  return `${lines.join('\n')}\n`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any section, whatever its variables
function settingLines(section: EnvSection<any, unknown>): string[] {
  const names = Object.keys(section.variables as Record<string, unknown>);
  const width = Math.max(...names.map((name) => name.length));
  return names.map((name) => `  ${name.padEnd(width)}  ${settingDescription(section, name)}`);
}
