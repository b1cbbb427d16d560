import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/**
 * What ships under deploy/: the alert rules (checked and unit-tested by Prometheus's own promtool)
 * and the Grafana dashboard, both over metrics a real gateway exposes on /metrics.
 */

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));
const ALERTS = join(DEPLOY, 'prometheus/alerts.yml');
const ALERT_TESTS = join(DEPLOY, 'prometheus/alerts.test.yml');
const DASHBOARD = join(DEPLOY, 'grafana/v1gate.json');

/** Debian's `prometheus` package (installed by .ci/run) provides promtool. */
const PROMTOOL = spawnSync('promtool', ['--version']).status === 0;
if (!PROMTOOL)
  console.warn("deploy/prometheus: promtool not found, its checks are skipped here: install Debian's `prometheus` package (.ci/run does).");

function promtool(...args: string[]): string {
  try {
    return execFileSync('promtool', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}

interface Dashboard {
  panels: Panel[];
  templating: { list: { definition?: string }[] };
}

const dashboard = () => JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;

/** The PromQL of every panel, rows' panels included. */
function panelQueries(): string[] {
  const all = (panels: Panel[]): Panel[] => panels.flatMap((p) => [p, ...all(p.panels ?? [])]);
  return all(dashboard().panels).flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

/** The variables' queries (Grafana's `label_values(...)`, not PromQL). */
const variableQueries = () => dashboard().templating.list.flatMap((v) => (v.definition ? [v.definition] : []));

/** Grafana's variables as a plain Prometheus would read them. */
const withoutGrafanaVariables = (expr: string) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$job', '.*');

const alertNames = (text: string) => [...text.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]!);

/** Every v1gate metric an expression reads, by the name its `# TYPE` line has (histogram series without their suffix). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\bv1gate_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, ''));
}

describe.skipIf(!PROMTOOL)('the alert rules (promtool)', () => {
  it('are valid rules', () => {
    expect(promtool('check', 'rules', ALERTS)).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('pass their unit tests, and every alert has one where it fires and one where it does not', () => {
    expect(promtool('test', 'rules', ALERT_TESTS)).toContain('SUCCESS');
    const tests = readFileSync(ALERT_TESTS, 'utf8');
    const names = alertNames(readFileSync(ALERTS, 'utf8'));
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      const cases = [...tests.matchAll(new RegExp(`alertname: ${name}\\n\\s*exp_alerts:(.*)`, 'g'))].map((m) => m[1]!.trim());
      expect(cases, name).toContain('[]');
      expect(cases, name).toContain('');
    }
  });

  it("parse every query of the dashboard (each as a recording rule, Grafana's variables filled in)", () => {
    const rules = panelQueries().map(
      (expr, i) => `      - record: v1gate_dashboard_query_${i}\n        expr: ${JSON.stringify(withoutGrafanaVariables(expr))}`,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'v1gate-dashboard-')), 'queries.yml');
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
    expect(promtool('check', 'rules', file)).toContain(`SUCCESS: ${rules.length} rules found`);
  });
});

describe('the dashboard and the alerts query what a real gateway exposes', () => {
  let primary: TestGateway;
  let gateway: RunningGateway;
  beforeAll(async () => {
    // Everything on: webhooks, per-key series, and shadow mode in front of another gateway.
    primary = await startTestGateway();
    const dir = mkdtempSync(join(tmpdir(), 'v1gate-deploy-'));
    writeFileSync(join(dir, 'subs.json'), JSON.stringify([{ api_key: 'k', url: 'http://127.0.0.1:9/hook' }]));
    gateway = await startGateway(
      loadConfig({
        PORT: '0',
        V2_BASE_URL: primary.v2BaseUrl,
        V1_PRIMARY_URL: primary.url,
        METRICS_PER_KEY: 'on',
        V1_WEBHOOKS_FILE: join(dir, 'subs.json'),
        V1_WEBHOOKS_JOURNAL: join(dir, 'journal'),
        V2_WEBHOOK_TOKEN: 'deploy-test-token',
        V1_WEBHOOKS_ANY_PORT: 'on',
        LOG_LEVEL: 'silent',
      }),
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await primary?.close();
  });

  it('every metric named in deploy/ has a # TYPE line on /metrics', async () => {
    const exposed = new Set([...(await (await fetch(`${gateway.url}/metrics`)).text()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    const queried = new Set([...panelQueries(), ...variableQueries(), readFileSync(ALERTS, 'utf8')].flatMap(metricNames));
    expect(queried.size).toBeGreaterThan(15);
    expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
  });
});
