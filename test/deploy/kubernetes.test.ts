import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { unknownSettings } from '../../src/unknown-settings.js';
import { rememberSecret } from '../support/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';
import { freePort } from '../support/nginx.js';

/**
 * deploy/kubernetes/: every object valid by the Kubernetes API's own schemas (kubernetes-models
 * ships them, generated from the API's OpenAPI, with each model's validate()); what those schemas
 * cannot say checked against v1gate itself: the settings are v1gate's and load, the drain fits in
 * the grace period, the probes' paths and port are what a gateway started with these settings
 * answers. A misspelt field passes a schema that allows unknown fields, so the fields that matter
 * are read here by name: a missing one fails.
 */

const FOLDER = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

/** A manifest as YAML reads it: plain data, its fields read by name. */
type Manifest = Record<string, any>;
const manifests: Manifest[] = readdirSync(FOLDER)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(join(FOLDER, file), 'utf8')).map((doc) => ({ ...doc.toJS(), file }) as Manifest));
const one = (kind: string, name: string) => {
  const found = manifests.filter((m) => m.kind === kind && m.metadata?.name === name);
  expect(found, `${kind} ${name}`).toHaveLength(1);
  return found[0]!;
};
const deployment = one('Deployment', 'v1gate');
const pod = deployment.spec.template;
const container = pod.spec.containers.find((c: Manifest) => c.name === 'v1gate') as Manifest;
const configMap = one('ConfigMap', 'v1gate');
const secret = one('Secret', 'v1gate');
const credentials = one('Secret', 'v1gate-credentials');
const redisSet = one('StatefulSet', 'v1gate-redis');
const redisContainer = redisSet.spec.template.spec.containers[0] as Manifest;

/** The gateway's environment as the pod gets it, the credential map mounted where the ConfigMap says. */
function podEnv(): Record<string, string> {
  const folder = mkdtempSync(join(tmpdir(), 'v1gate-k8s-'));
  const map = join(folder, 'credentials.json');
  writeFileSync(map, credentials.stringData['credentials.json']);
  return { ...configMap.data, ...secret.stringData, V2_CREDENTIALS_FILE: map };
}

describe('the Kubernetes manifests', () => {
  it('are each valid by the Kubernetes API schema of their kind', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(6);
    for (const manifest of manifests) {
      const { file, ...object } = manifest;
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(Model, `${file}: ${object.apiVersion} ${object.kind}`).toBeDefined();
      expect(() => new Model!(object as never).validate(), `${file}: ${object.kind} ${object.metadata?.name}`).not.toThrow();
    }
  });

  it('the schema check catches a wrong field type (it is not a no-op)', () => {
    const broken = structuredClone(deployment);
    delete broken.file;
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    expect(() => new Deployment(broken as never).validate()).toThrow(/containerPort must be integer/);
  });

  it('set only v1gate settings, which load; the map mounted where V2_CREDENTIALS_FILE names it', () => {
    expect(unknownSettings(podEnv())).toEqual([]);
    const config = loadConfig(podEnv());
    expect(config.v2BaseUrl).toBeDefined(); // several replicas: one v2, never a sandbox each
    expect(config.rateLimits.redis.url).toBeDefined(); // and one Redis for their limits and journal
    const mount = container.volumeMounts.find((m: Manifest) => m.name === 'credentials');
    expect(`${mount.mountPath}/credentials.json`).toBe(configMap.data.V2_CREDENTIALS_FILE);
    const volume = pod.spec.volumes.find((v: Manifest) => v.name === 'credentials');
    expect(volume.secret.secretName).toBe(credentials.metadata.name);
    expect(container.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }, { secretRef: { name: secret.metadata.name } }]);
  });

  it('run several replicas, non-root on a read-only root, with a grace period longer than the drain', () => {
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(pod.spec.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    const config = loadConfig(podEnv());
    const preStopMs = Number(container.lifecycle.preStop.exec.command[1]) * 1000;
    // The drain: SHUTDOWN_GRACE_MS for calls, UPSTREAM_TIMEOUT_MS more for rollbacks, 2 s to close (src/gateway.ts).
    const stopMs = preStopMs + config.shutdownGraceMs + config.upstream.timeoutMs + 2_000;
    expect(pod.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(stopMs);
    expect(container.readinessProbe.timeoutSeconds * 1000).toBeGreaterThan(config.ops.readyTimeoutMs);
  });

  it('point the Service and the disruption budget at the pods, and the probes at the port the gateway listens on', () => {
    const service = one('Service', 'v1gate');
    const budget = one('PodDisruptionBudget', 'v1gate');
    expect(pod.metadata.labels).toMatchObject(service.spec.selector);
    expect(pod.metadata.labels).toMatchObject(budget.spec.selector.matchLabels);
    expect(deployment.spec.selector.matchLabels).toEqual(budget.spec.selector.matchLabels);
    expect(budget.spec.maxUnavailable).toBeLessThan(deployment.spec.replicas);
    const port = (name: string | number) =>
      typeof name === 'number' ? name : container.ports.find((p: Manifest) => p.name === name)?.containerPort;
    expect(port(service.spec.ports[0].targetPort)).toBe(Number(configMap.data.PORT));
    expect(port(container.livenessProbe.httpGet.port)).toBe(Number(configMap.data.PORT));
    expect(port(container.readinessProbe.httpGet.port)).toBe(Number(configMap.data.PORT));
  });

  it('set what running behind the ingress needs: its proxies trusted, the private pages’ host, no per-address cap on the proxies’ connections', () => {
    const config = loadConfig(podEnv());
    expect(config.ops.privateAccess.trustedProxies.length).toBeGreaterThan(0);
    expect(config.ops.privateAccess.hosts).toContain(new URL(configMap.data.DOWNLOAD_BASE_URL).hostname);
    expect(config.maxConnectionsPerAddress).toBe(config.maxConnections);
    expect(config.ops.statusToken).toBeDefined();
    const policy = one('NetworkPolicy', 'v1gate');
    expect(pod.metadata.labels).toMatchObject(policy.spec.podSelector.matchLabels);
    const redisPolicy = one('NetworkPolicy', 'v1gate-redis');
    expect(redisSet.spec.template.metadata.labels).toMatchObject(redisPolicy.spec.podSelector.matchLabels);
    expect(pod.metadata.labels).toMatchObject(redisPolicy.spec.ingress[0].from[0].podSelector.matchLabels);
  });

  it('ship v1gate-redis, the Redis REDIS_URL names, persistent (AOF), under the password REDIS_URL holds', () => {
    const url = new URL(secret.stringData.REDIS_URL);
    const service = one('Service', 'v1gate-redis');
    expect(url.hostname).toBe(service.metadata.name);
    expect(Number(url.port)).toBe(service.spec.ports[0].port);
    expect(service.spec.selector).toEqual(redisSet.spec.template.metadata.labels);
    expect(redisContainer.args.join(' ')).toContain('--appendonly yes');
    const password = redisContainer.env.find((e: Manifest) => e.name === 'REDIS_PASSWORD').valueFrom.secretKeyRef;
    expect(decodeURIComponent(url.password)).toBe(one('Secret', password.name).stringData[password.key]);
    expect(redisSet.spec.volumeClaimTemplates[0].metadata.name).toBe(redisContainer.volumeMounts[0].name);
  });

  describe('a gateway started with these settings, over v1gate-redis run as its manifest runs it', () => {
    let redis: ChildProcess;
    let gateway: GatewayProcess;
    beforeAll(async () => {
      rememberSecret(secret.stringData.STATUS_TOKEN);
      // Redis with the manifest's arguments, its password from the Secret (as the kubelet expands
      // $(REDIS_PASSWORD)), on this machine's loopback, a free port and a folder made here.
      const passwordRef = redisContainer.env.find((e: Manifest) => e.name === 'REDIS_PASSWORD').valueFrom.secretKeyRef;
      const password = one('Secret', passwordRef.name).stringData[passwordRef.key] as string;
      const dataDir = mkdtempSync(join(tmpdir(), 'v1gate-k8s-redis-'));
      const port = await freePort();
      const args = (redisContainer.args as string[]).map((a) => a.replace('$(REDIS_PASSWORD)', password).replace('/data', dataDir));
      redis = spawn('redis-server', [...args, '--port', String(port), '--bind', '127.0.0.1', '--save', ''], { stdio: 'ignore' });
      const url = new URL(secret.stringData.REDIS_URL);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      // The pod's settings, but this machine's Redis and port, and the embedded sandbox for v2.
      const { V2_BASE_URL: _real, ...env } = podEnv();
      gateway = await startGatewayProcess({ ...env, REDIS_URL: url.href, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    }, 60_000);
    afterAll(async () => {
      await gateway?.stop();
      if (redis && redis.exitCode === null) {
        const exited = new Promise((resolve) => redis.once('exit', resolve));
        redis.kill('SIGTERM');
        await exited;
      }
    });

    it('reaches its Redis with the password of REDIS_URL', async () => {
      let limiter: string | undefined;
      for (let tries = 0; tries < 50 && limiter !== 'reachable'; tries++) {
        const ready = (await (await fetch(`${gateway.url}/readyz`)).json()) as { checks: { limiter: { detail: string } } };
        limiter = ready.checks.limiter.detail;
        if (limiter !== 'reachable') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(limiter).toBe('reachable');
    });

    it('answers the liveness and readiness probes’ paths with 200', async () => {
      for (const probe of [container.livenessProbe, container.readinessProbe]) {
        const answer = await fetch(`${gateway.url}${probe.httpGet.path}`, { signal: AbortSignal.timeout(probe.timeoutSeconds * 1000) });
        expect(answer.status, probe.httpGet.path).toBe(200);
      }
      // A path that is not there fails a probe pointed at it, as it must (not a v1 envelope's 200).
      expect((await fetch(`${gateway.url}/healthzz`)).status).toBe(404);
    });
  });
});
