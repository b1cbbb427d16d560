import { closeSync, existsSync, mkdtempSync, openSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { GatewayConfig } from '../config.js';
import type { ConfigProblem } from '../shared/env.js';

/**
 * The files a start opens, each tried the way the start will use it, so that `check` and the start
 * itself refuse the same configurations, in one line naming the setting, before a library opens
 * the file and dies with its stack trace. Asking the file system "may I?" (access(2)) is not
 * enough: root may write anywhere by that answer, yet not under /proc or on a read-only mount.
 */

export interface StartFile {
  variable: string;
  path: string;
  /** The start makes missing folders (the log, the webhook journal, the state files). */
  makesFolders: boolean;
}

/** Every file the configuration has a start open or write (the credential map is read by the configuration itself). */
export function startFiles(config: GatewayConfig): StartFile[] {
  const files: (StartFile | false | undefined)[] = [
    config.ops.logFile !== undefined && { variable: 'LOG_FILE', path: config.ops.logFile, makesFolders: true },
    config.ops.pidFile !== undefined && { variable: 'PID_FILE', path: config.ops.pidFile, makesFolders: false },
    config.record.file !== undefined && { variable: 'V1_RECORD_FILE', path: config.record.file, makesFolders: false },
    config.webhooks.file !== undefined &&
      !config.webhooks.redis.url && { variable: 'V1_WEBHOOKS_JOURNAL', path: config.webhooks.journalFile, makesFolders: true },
    config.shadow.primaryUrl !== undefined &&
      config.shadow.stateFile !== undefined &&
      !config.rateLimits.redis.url && { variable: 'SHADOW_STATE_FILE', path: config.shadow.stateFile, makesFolders: true },
    config.v2BaseUrl === undefined &&
      config.sandbox.dataFile !== undefined && { variable: 'SANDBOX_DATA_FILE', path: config.sandbox.dataFile, makesFolders: true },
  ];
  return files.filter((file): file is StartFile => Boolean(file));
}

/** What stops each file from being opened as the start opens it; empty when all can be. */
export function startFileProblems(files: readonly StartFile[]): ConfigProblem[] {
  return files.flatMap((file) => {
    const message = fileProblem(file);
    return message === undefined ? [] : [{ variable: file.variable, message }];
  });
}

function fileProblem({ path: given, makesFolders }: StartFile): string | undefined {
  const path = resolve(given);
  const folder = dirname(path);
  if (!existsSync(folder)) return makesFolders ? folderProblem(given, folder) : `${given}: the folder ${folder} does not exist`;
  if (!statSync(folder).isDirectory()) return `${given} cannot be made: ${folder} is not a folder`;
  // An existing file is opened for reading and writing, as appending, replaying or replacing it will.
  if (existsSync(path)) {
    if (!statSync(path).isFile()) return `${given} is not a file`;
    const problem = tried(() => closeSync(openSync(path, 'r+')));
    if (problem) return `${given} cannot be opened for writing: ${problem}`;
  }
  // A file beside it is made and removed: the file itself (if new), its rotation or a replacement
  // written beside it and renamed over it all need that.
  const probe = `${path}.check-${process.pid}`;
  const problem = tried(() => {
    closeSync(openSync(probe, 'wx', 0o600));
    unlinkSync(probe);
  });
  return problem ? `${given} cannot be written in ${folder}: ${problem}` : undefined;
}

/** A folder the start would make: a folder is made and removed in its nearest existing ancestor. */
function folderProblem(given: string, folder: string): string | undefined {
  const ancestor = nearestExisting(folder);
  if (!statSync(ancestor).isDirectory()) return `${given} cannot be made: ${ancestor} is not a folder`;
  const problem = tried(() => rmdirSync(mkdtempSync(join(ancestor, '.v1gate-check-'))));
  return problem ? `${given}: the folder ${folder} cannot be made in ${ancestor}: ${problem}` : undefined;
}

function nearestExisting(folder: string): string {
  return existsSync(folder) || dirname(folder) === folder ? folder : nearestExisting(dirname(folder));
}

/** Runs `attempt`; the reason it failed, in words, or undefined. */
function tried(attempt: () => void): string | undefined {
  try {
    attempt();
    return undefined;
  } catch (error) {
    return reasonOf(error);
  }
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code ?? '';
  const reasons: Record<string, string> = {
    EACCES: 'this user may not',
    EPERM: 'this user may not',
    EROFS: 'the file system is read-only',
    ENOENT: 'the file system does not take new files there',
    EISDIR: 'it is a folder',
    ENOTDIR: 'a part of the path is not a folder',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
  };
  return reasons[code] ?? (code || String(error));
}
