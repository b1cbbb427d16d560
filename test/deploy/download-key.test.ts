import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { checkConfiguration } from '../../src/cli/check.js';
import { downloadKeyProblems } from '../../src/cli/download-key.js';
import { loadConfig } from '../../src/config.js';
import { startGatewayProcess } from '../support/process-gateway.js';

/**
 * DOWNLOAD_URL_KEY where several processes or instances serve one address: without one, each
 * seals links with a random key of its own, so a link made by one is refused by the others and
 * every link ends at a restart. Over a remote v2, `check` and the start refuse it; over a v2 on
 * this machine they warn. The shipped configurations carry a key.
 */

const KEY = 'a-download-signing-key-of-32-chars-at-least';
const REMOTE = { V2_BASE_URL: 'https://api.zoom.us/v2' };
const problemsOf = (env: Record<string, string>) => downloadKeyProblems(loadConfig({ PORT: '0', ...env })).map((p) => p.variable);

describe('DOWNLOAD_URL_KEY with several processes or instances', () => {
  it('is required over a remote v2 with WORKERS>1 or REDIS_URL, and only then', () => {
    expect(problemsOf({ ...REMOTE, WORKERS: '2' })).toEqual(['DOWNLOAD_URL_KEY']);
    expect(problemsOf({ ...REMOTE, REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual(['DOWNLOAD_URL_KEY']);
    expect(problemsOf({ ...REMOTE, WORKERS: '2', DOWNLOAD_URL_KEY: KEY })).toEqual([]);
    expect(problemsOf({ ...REMOTE })).toEqual([]);
    expect(problemsOf({ WORKERS: '2' })).toEqual([]);
    expect(problemsOf({ V2_BASE_URL: 'http://127.0.0.1:9/v2', REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([]);
  });

  it('over a local v2, check warns instead, and says how links are sealed', async () => {
    const report = await checkConfiguration({ PORT: '0', WORKERS: '2' });
    expect(report.problems).toEqual([]);
    expect(report.warnings.join('\n')).toMatch(/DOWNLOAD_URL_KEY is unset: .*refused by the others/);
    expect(report.summary).toContain(
      'download links: sealed with a random key per process (DOWNLOAD_URL_KEY unset), working as long as the file exists',
    );
    const keyed = await checkConfiguration({ PORT: '0', WORKERS: '2', DOWNLOAD_URL_KEY: KEY });
    expect(keyed.warnings.join('\n')).not.toMatch(/DOWNLOAD_URL_KEY/);
    expect(keyed.summary).toContain('download links: sealed with DOWNLOAD_URL_KEY, working as long as the file exists');
  });

  it('the start refuses WORKERS=2 over a remote v2 without it, naming the setting and the fix', async () => {
    const started = startGatewayProcess({ ...REMOTE, WORKERS: '2', LOG_LEVEL: 'silent' });
    await expect(started).rejects.toThrow(/cannot start: [\s\S]*DOWNLOAD_URL_KEY: unset with WORKERS=2: .*openssl rand -hex 32/);
  });
});

describe('the shipped configurations', () => {
  it('the Kubernetes Secret carries DOWNLOAD_URL_KEY and the ConfigMap DOWNLOAD_BASE_URL: the pod settings pass', () => {
    const folder = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));
    const docs = ['configmap.yaml', 'secret.yaml'].flatMap((file) =>
      parseAllDocuments(readFileSync(join(folder, file), 'utf8')).map(
        (doc) => doc.toJS() as { metadata: { name: string }; data?: Record<string, string>; stringData?: Record<string, string> },
      ),
    );
    const data = docs.find((d) => d.data && d.metadata.name === 'v1gate')!.data!;
    const secrets = docs.find((d) => d.stringData?.['REDIS_URL'])!.stringData!;
    expect(secrets['DOWNLOAD_URL_KEY']!.length).toBeGreaterThanOrEqual(32);
    const map = join(mkdtempSync(join(tmpdir(), 'v1gate-k8s-key-')), 'credentials.json');
    writeFileSync(map, '[]\n');
    const config = loadConfig({ ...data, ...secrets, V2_CREDENTIALS_FILE: map });
    expect(config.downloads.baseUrl).toMatch(/^https:\/\//);
    expect(downloadKeyProblems(config)).toEqual([]);
  });

  it('the systemd settings example carries both, and nginx passes the scheme and host', () => {
    const example = readFileSync(fileURLToPath(new URL('../../deploy/systemd/v1gate.env.example', import.meta.url)), 'utf8');
    expect(example).toMatch(/^DOWNLOAD_URL_KEY=.{32,}$/m);
    expect(example).toMatch(/^DOWNLOAD_BASE_URL=https:\/\//m);
    const nginx = readFileSync(fileURLToPath(new URL('../../deploy/nginx/v1gate.conf', import.meta.url)), 'utf8');
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-Host \$http_host;/);
  });
});
