import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { unknownSettings } from '../../src/unknown-settings.js';

/**
 * deploy/helm/v1gate: the chart. What holds without helm: its settings are v1gate's and load, they
 * are the plain manifests' (deploy/kubernetes/configmap.yaml), and its alert rules are
 * deploy/prometheus/alerts.yml. Where helm is installed, `helm template` with the default values
 * and with values-production.yaml renders objects valid by the Kubernetes API's schemas, with the
 * autoscaler, the topology spread, the network policies, the ServiceMonitor and the config checksum.
 */

const CHART = fileURLToPath(new URL('../../deploy/helm/v1gate/', import.meta.url));
const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));
const hasHelm = spawnSync('helm', ['version', '--short']).status === 0;
if (!hasHelm) console.warn('deploy/helm: helm is not installed here, so the chart is not rendered (`helm template` runs where helm is).');

type Manifest = Record<string, any>;
const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Manifest;
const production = parse(readFileSync(join(CHART, 'values-production.yaml'), 'utf8')) as Manifest;

/** The settings as a pod gets them, the credential map a file made here. */
function podSettings(settings: Record<string, string>): Record<string, string> {
  const map = join(mkdtempSync(join(tmpdir(), 'v1gate-helm-')), 'credentials.json');
  writeFileSync(map, '[]\n');
  return { ...settings, V2_CREDENTIALS_FILE: map, REDIS_URL: 'redis://:p@v1gate-redis:6379', DOWNLOAD_URL_KEY: 'k'.repeat(64) };
}

describe('the Helm chart', () => {
  it('sets v1gate settings only, which load, with the default values and the production example', () => {
    for (const settings of [values.settings, { ...values.settings, ...production.settings }]) {
      expect(unknownSettings(settings)).toEqual([]);
      const config = loadConfig(podSettings(settings));
      expect(config.maxConnectionsPerAddress).toBe(config.maxConnections);
      expect(config.ops.privateAccess.trustedProxies.length).toBeGreaterThan(0);
    }
  });

  it('sets what the plain manifests set, and alerts by deploy/prometheus/alerts.yml', () => {
    const configMap = parse(readFileSync(join(DEPLOY, 'kubernetes/configmap.yaml'), 'utf8')) as Manifest;
    expect(values.settings).toEqual(configMap.data);
    expect(readFileSync(join(CHART, 'files/alerts.yml'), 'utf8')).toBe(readFileSync(join(DEPLOY, 'prometheus/alerts.yml'), 'utf8'));
  });

  describe.skipIf(!hasHelm)('rendered by helm template', () => {
    const MODELS: Record<string, new (data: never) => { validate(): void }> = {
      'v1/ConfigMap': ConfigMap,
      'v1/Secret': Secret,
      'v1/Service': Service,
      'v1/ServiceAccount': ServiceAccount,
      'apps/v1/Deployment': Deployment,
      'apps/v1/StatefulSet': StatefulSet,
      'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
      'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
      'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
    };
    const render = (...args: string[]): Manifest[] => {
      const run = spawnSync('helm', ['template', 'v1gate', CHART, ...args], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      return parseAllDocuments(run.stdout)
        .map((doc) => doc.toJS() as Manifest)
        .filter(Boolean);
    };

    for (const [name, args] of [
      ['the default values', []],
      ['values-production.yaml', ['-f', join(CHART, 'values-production.yaml')]],
    ] as const) {
      it(`renders valid objects with ${name}: autoscaler, spread, network policy, ServiceMonitor, config checksum`, () => {
        const objects = render(...args);
        for (const object of objects) {
          const Model = MODELS[`${object.apiVersion}/${object.kind}`];
          if (object.apiVersion === 'monitoring.coreos.com/v1') continue; // the Prometheus Operator's own kinds
          expect(Model, `${object.apiVersion} ${object.kind}`).toBeDefined();
          expect(() => new Model!(object as never).validate(), `${object.kind} ${object.metadata?.name}`).not.toThrow();
        }
        const kinds = objects.map((o) => o.kind);
        for (const kind of [
          'HorizontalPodAutoscaler',
          'NetworkPolicy',
          'ServiceMonitor',
          'PrometheusRule',
          'PodDisruptionBudget',
          'ServiceAccount',
        ])
          expect(kinds, kind).toContain(kind);
        const deployment = objects.find((o) => o.kind === 'Deployment')!;
        const pod = deployment.spec.template;
        expect(pod.metadata.annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
        expect(pod.spec.topologySpreadConstraints.map((c: Manifest) => c.topologyKey)).toEqual([
          'kubernetes.io/hostname',
          'topology.kubernetes.io/zone',
        ]);
        expect(pod.spec.containers[0].startupProbe.httpGet.path).toBe('/healthz');
        expect(pod.spec.automountServiceAccountToken).toBe(false);
      });
    }
  });
});
