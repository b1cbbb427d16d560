import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { unknownSettings } from '../../src/unknown-settings.js';
import { shippedSystemdEnv } from '../support/shipped-env.js';

/**
 * deploy/systemd/: the unit as systemd itself reads it (`systemd-analyze verify`, where installed:
 * a misspelt directive is only a warning there, so its output must be empty too), the hardening and
 * lifecycle an operator counts on, the credential map's copy step run as the unit runs it, and the
 * settings file example v1gate's own.
 */

const FOLDER = fileURLToPath(new URL('../../deploy/systemd/', import.meta.url));
const UNIT = join(FOLDER, 'v1gate.service');
const unit = readFileSync(UNIT, 'utf8');
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!hasAnalyze) console.warn('deploy/systemd: systemd-analyze not found, the unit is not verified here (it comes with systemd).');
/** Giving a folder to another user, as systemd gives the RuntimeDirectory to the service's, takes root. */
const isRoot = process.getuid?.() === 0;

/** Every value of a directive in [Service], in order. */
const directive = (name: string) =>
  unit
    .split('\n')
    .filter((line) => line.startsWith(`${name}=`))
    .map((line) => line.slice(name.length + 1));

/** An Exec line as the service's shell runs it: systemd's `$$` and `%%` escapes undone. */
const asRun = (line: string) => line.replace(/^\+/, '').replaceAll('$$', '$').replaceAll('%%', '%');

describe('the systemd unit', () => {
  it.skipIf(!hasAnalyze)('passes systemd-analyze verify with nothing to say', () => {
    const verify = spawnSync('systemd-analyze', ['verify', '--man=no', UNIT], { encoding: 'utf8', timeout: 60_000 });
    expect(verify.stderr + verify.stdout).toBe('');
    expect(verify.status).toBe(0);
  });

  it.skipIf(!hasAnalyze)('is refused by systemd-analyze verify when a directive is misspelt (the check is not a no-op)', () => {
    const broken = join(mkdtempSync(join(tmpdir(), 'v1gate-unit-')), 'v1gate.service');
    writeFileSync(broken, unit.replace('DynamicUser=yes', 'DynamicUsr=yes'));
    const verify = spawnSync('systemd-analyze', ['verify', '--man=no', broken], { encoding: 'utf8', timeout: 60_000 });
    expect(verify.stderr).toContain("Unknown key 'DynamicUsr'");
  });

  it('runs the compiled gateway hardened, restarts it on failure, and keeps its journal in its state folder', () => {
    // node from the PATH, /usr/local/bin first: Debian 12's /usr/bin/node is Node 18, too old.
    expect(directive('ExecStart')).toEqual(['/usr/bin/env node /opt/v1gate/dist/src/main.js']);
    expect(directive('Environment')).toContain('PATH=/usr/local/bin:/usr/bin:/bin');
    for (const [name, value] of [
      ['DynamicUser', 'yes'],
      ['ProtectSystem', 'strict'],
      ['NoNewPrivileges', 'yes'],
      ['Restart', 'on-failure'],
      ['StateDirectory', 'v1gate'],
      ['EnvironmentFile', '/etc/v1gate/v1gate.env'],
      ['KillSignal', 'SIGTERM'],
      ['MemoryMax', '1G'],
      ['TasksMax', '512'],
      ['SystemCallErrorNumber', 'EPERM'],
    ] as const)
      expect(directive(name), name).toEqual([value]);
    expect(directive('Environment')).toContain('V1_WEBHOOKS_JOURNAL=/var/lib/v1gate/webhooks.journal');
    expect(directive('ExecReload').at(-1)).toBe('/bin/kill -HUP $MAINPID');
  });

  it('gives the drain its whole time before systemd kills', () => {
    const config = loadConfig({});
    const drainMs = config.shutdownGraceMs + config.upstream.timeoutMs + 2_000;
    expect(Number(directive('TimeoutStopSec')[0]) * 1000).toBeGreaterThan(drainMs);
  });

  it.skipIf(!isRoot)('copies the root-owned credential map for the service’s user alone, at start and at reload', () => {
    const root = mkdtempSync(join(tmpdir(), 'v1gate-unit-run-'));
    const [etc, run] = [join(root, 'etc'), join(root, 'run')];
    mkdirSync(etc);
    mkdirSync(run);
    writeFileSync(join(etc, 'credentials.json'), '[]\n', { mode: 0o600 });
    // The service's user owns its RuntimeDirectory; any other uid than the one running this will do.
    const serviceUid = 65534;
    chownSync(run, serviceUid, serviceUid);
    const copy = directive('ExecStartPre')[0]!;
    expect(directive('ExecReload')[0]).toBe(copy);
    const shellLine = asRun(copy).replaceAll('/etc/v1gate', etc).replaceAll('/run/v1gate', run);
    const [shell, flag, script] = shellLine.match(/^(\S+) (-c) '(.*)'$/)!.slice(1);
    const ran = spawnSync(shell!, [flag!, script!], { encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    const copied = statSync(join(run, 'credentials.json'));
    expect({ uid: copied.uid, mode: copied.mode & 0o777 }).toEqual({ uid: serviceUid, mode: 0o400 });
  });

  it('has a settings file example of v1gate settings only, which load', () => {
    const env = shippedSystemdEnv();
    expect(unknownSettings(env)).toEqual([]);
    const map = join(mkdtempSync(join(tmpdir(), 'v1gate-unit-env-')), 'credentials.json');
    writeFileSync(map, '[]\n');
    expect(loadConfig({ ...env, V2_CREDENTIALS_FILE: map }).rateLimits.redis.url).toBeDefined();
  });
});
