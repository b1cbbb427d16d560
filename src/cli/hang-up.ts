import { isatty } from 'node:tty';
import type { Env } from '../shared/env.js';

/**
 * What a SIGHUP means to the gateway. To a service (systemd's ExecReload, `kill -HUP` in a
 * container) it is the old daemon convention, "read your configuration again": the credential map
 * is reloaded. To a process started from a terminal it is the terminal hanging up (closed, SSH
 * dropped): the kernel sends it to the whole process group, npm dies of it, and a gateway that took
 * it as a reload went on serving as an orphan. So ON_SIGHUP decides, and its default `auto` reads
 * how the process was started: under npm (npm sets npm_lifecycle_event in its script's
 * environment) or with a terminal on standard input, output or error, a HUP stops it (a drain, as
 * SIGTERM); otherwise it reloads. SIGUSR2 always reloads (`npm run reload` sends it), whichever way
 * the process was started.
 */
export type HangUp = 'reload' | 'stop';

export function hangUpMeans(setting: 'auto' | HangUp, env: Env, hasTerminal = [0, 1, 2].some((fd) => isatty(fd))): HangUp {
  if (setting !== 'auto') return setting;
  return startedByNpm(env) || hasTerminal ? 'stop' : 'reload';
}

/** npm (and its `npm start`, `npm run ...`) puts the script's name in every script's environment. */
export function startedByNpm(env: Env): boolean {
  return (env.npm_lifecycle_event ?? '') !== '';
}

/**
 * The signals that stop or reload the gateway, as `hangUp` says. Under npm, npm's own death (a HUP
 * to npm's pid alone, which npm does not pass on) leaves this process with another parent: that is
 * taken as the hang-up it was, never as a reason to serve on unseen.
 */
export function onControlSignals(hangUp: HangUp, env: Env, actions: { stop(signal: NodeJS.Signals): void; reload(): void }): void {
  process.on('SIGINT', actions.stop);
  process.on('SIGTERM', actions.stop);
  process.on('SIGUSR2', () => actions.reload());
  process.on('SIGHUP', hangUp === 'reload' ? () => actions.reload() : actions.stop);
  if (startedByNpm(env)) watchParent(() => actions.stop('SIGHUP'));
}

/** How often the parent is looked at: a stop half a second after npm died is soon enough. */
const PARENT_CHECK_MS = 500;

function watchParent(gone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, PARENT_CHECK_MS);
  // It never keeps the process alive by itself.
  timer.unref();
}
