import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { Env } from '../shared/env.js';

/**
 * PID_FILE: the gateway's own process id, so a signal reaches the gateway whichever process an
 * operator knows (`npm start` shows npm's pid; npm passes TERM and INT on, but not HUP or USR2) and
 * `reload` (`npm run reload`) finds it. Written at start,
 * removed at exit when it still names this process.
 */

/** Writes this process's id, refusing a file that names another gateway still running. */
export function writePidFile(file: string): void {
  const other = pidIn(file);
  if (other !== undefined && other !== process.pid && alive(other)) {
    throw new PidFileInUse(`PID_FILE: ${file} names process ${other}, which is running: another gateway uses this file`);
  }
  // Written beside and renamed: a reader never sees half a number.
  const next = `${file}.${process.pid}.next`;
  writeFileSync(next, `${process.pid}\n`, { mode: 0o600 });
  renameSync(next, file);
  process.once('exit', () => removePidFile(file));
}

/** Removes the file if it names this process (never another gateway's). */
export function removePidFile(file: string): void {
  if (pidIn(file) !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // removed already
  }
}

/**
 * `reload`: SIGUSR2 to the gateway PID_FILE names (the credential map is read again). Not a HUP: to
 * a gateway started by npm or from a terminal a HUP is the terminal hanging up, and stops it.
 * True when sent.
 */
export function sendReload(env: Env): boolean {
  const file = env.PID_FILE?.trim();
  if (!file) return refuse('PID_FILE is not set: set it to the file the running gateway was started with');
  const pid = pidIn(file);
  if (pid === undefined) return refuse(`PID_FILE: ${file} holds no process id (is the gateway running with PID_FILE=${file}?)`);
  if (!alive(pid)) return refuse(`PID_FILE: process ${pid} named in ${file} is not running`);
  process.kill(pid, 'SIGUSR2');
  console.log(`v1gate reload: SIGUSR2 sent to the gateway (pid ${pid}); its log says whether V2_CREDENTIALS_FILE was reloaded`);
  return true;
}

/** A start refused because PID_FILE names another gateway: one line, as a setting's problem. */
export class PidFileInUse extends Error {
  override readonly name = 'PidFileInUse';
}

function refuse(message: string): false {
  console.error(`v1gate reload: ${message}`);
  return false;
}

function pidIn(file: string): number | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return (error as { code?: string }).code === 'EPERM';
  }
}
