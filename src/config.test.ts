import { describe, expect, it } from 'vitest';
import { ConfigError, SETTINGS, loadConfig } from './config.js';
import { describeUnknownSetting, knownVariables, unknownSettings } from './unknown-settings.js';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('the configuration loader', () => {
  it('reads every section: defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', workers: 1, v2BaseUrl: undefined, shutdownGraceMs: 25_000 });
    expect(config.rateLimits.v1.enabled).toBe(true);
    expect(config.webhooks.file).toBeUndefined();
    expect(config.ops.logLevel).toBe('info');
  });

  it('keeps UPSTREAM_MAX_BODY_BYTES to what one string can hold: a v2 answer past 512 MiB could not be made into text', () => {
    expect(loadConfig({ UPSTREAM_MAX_BODY_BYTES: String(256 * 1024 * 1024) }).upstream.maxBodyBytes).toBe(256 * 1024 * 1024);
    expect(problemsOf({ UPSTREAM_MAX_BODY_BYTES: String(256 * 1024 * 1024 + 1) }).problems.map((p) => p.variable)).toEqual([
      'UPSTREAM_MAX_BODY_BYTES',
    ]);
  });

  it('reads PRIVATE_HOSTS as names and CIDRs, and refuses a CIDR that is none', () => {
    expect(loadConfig({ PRIVATE_HOSTS: 'status.example.com:8443, 10.0.0.0/8' }).ops.privateAccess.hosts).toEqual([
      'status.example.com:8443',
      '10.0.0.0/8',
    ]);
    expect(problemsOf({ PRIVATE_HOSTS: 'status.example.com,10.0.0.0/99' }).message).toContain(
      'PRIVATE_HOSTS: must be comma-separated host names or CIDRs',
    );
  });

  it('reports every problem of every section at once, each naming its variable', () => {
    const error = problemsOf({
      PORT: 'eighty',
      SHADOW_SAMPLE: '2',
      RATE_LIMIT_SCALE: 'fast',
      V1_WEBHOOKS_FILE: 'subscriptions.json',
      LOG_LEVEL: 'loud',
    });
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      'LOG_LEVEL',
      'PORT',
      'RATE_LIMIT_SCALE',
      'SHADOW_SAMPLE',
      'V2_WEBHOOK_SECRET_TOKEN',
    ]);
    expect(error.message.split('\n')).toHaveLength(6);
    expect(error.message).toContain('PORT: must be a whole number (got "eighty")');
    expect(error.message).toContain('V2_WEBHOOK_SECRET_TOKEN: required when V1_WEBHOOKS_FILE is set');
  });

  it('bounds the bodies held at once from the largest body, and refuses a bound no body could fit', () => {
    expect(loadConfig({}).maxBufferedBytes).toBe(16 * 4 * 1024 * 1024);
    expect(loadConfig({ V1_MAX_BODY_BYTES: '1048576' }).maxBufferedBytes).toBe(16 * 1024 * 1024);
    expect(loadConfig({ V1_MAX_BUFFERED_BYTES: '8388608' }).maxBufferedBytes).toBe(8 * 1024 * 1024);
    expect(problemsOf({ V1_MAX_BUFFERED_BYTES: '1048576' }).message).toContain(
      'V1_MAX_BUFFERED_BYTES: must be at least V1_MAX_BODY_BYTES (4194304): no body of that size could be read',
    );
  });

  it('never repeats the value of a secret or of a URL, which may carry one', () => {
    const error = problemsOf({
      STATUS_TOKEN: 'short-tok',
      V2_WEBHOOK_TOKEN: 'tok',
      SANDBOX_API_SECRET: ' ',
      V2_BASE_URL: 'https//user:pa55word@v2',
      V1_PRIMARY_URL: 'example.com/pa55word',
      PORT: '99999',
    });
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      'PORT',
      'STATUS_TOKEN',
      'V1_PRIMARY_URL',
      'V2_BASE_URL',
      'V2_WEBHOOK_TOKEN',
    ]);
    expect(error.message).not.toMatch(/short-tok|"tok"|pa55word/);
    expect(error.message).toContain('STATUS_TOKEN: must be at least 16 characters');
    expect(error.message).toContain('(got "99999")');
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ PORT: ' ', REDIS_URL: '' })).toMatchObject({ port: 8080, rateLimits: { redis: { url: undefined } } });
  });

  it('describes every variable, for --help', () => {
    for (const section of Object.values(SETTINGS)) {
      for (const [name, schema] of Object.entries(section.variables)) expect(schema.description, name).toBeTruthy();
    }
  });
});

describe('variables v1gate does not know', () => {
  it('are named when they look like a misspelt setting, with the setting meant', () => {
    const env = { PROT: '8081', V1_WEBHOOK_FILE: 'hooks.json', LOGLEVEL: 'debug', port: '1', WORKER: '2', REDIS_URI: 'redis://x' };
    expect(unknownSettings(env)).toEqual([
      { variable: 'LOGLEVEL', suggestion: 'LOG_LEVEL' },
      { variable: 'PROT', suggestion: 'PORT' },
      { variable: 'REDIS_URI', suggestion: 'REDIS_URL' },
      { variable: 'V1_WEBHOOK_FILE', suggestion: 'V1_WEBHOOKS_FILE' },
      { variable: 'WORKER', suggestion: 'WORKERS' },
      { variable: 'port', suggestion: 'PORT' },
    ]);
    expect(describeUnknownSetting({ variable: 'PROT', suggestion: 'PORT' })).toBe(
      'PROT is not a v1gate setting and is ignored: did you mean PORT?',
    );
  });

  it("are named with v1gate's prefixes even when nothing is close", () => {
    expect(unknownSettings({ V2_SOMETHING_ELSE_ENTIRELY: '1', SANDBOX_COLOUR: 'blue' })).toEqual([
      { variable: 'SANDBOX_COLOUR', suggestion: undefined },
      { variable: 'V2_SOMETHING_ELSE_ENTIRELY', suggestion: undefined },
    ]);
  });

  it("leave alone the machine's own variables, old names still read, and what the cluster sets", () => {
    const env = Object.fromEntries(
      ['HOME', 'PATH', 'USER', 'SHELL', 'LANG', 'TERM', 'PWD', 'HOSTNAME', 'NODE_ENV', 'NODE_OPTIONS', 'TZ', 'CI', 'EDITOR', 'INIT_CWD']
        .concat(['npm_config_cache', 'npm_lifecycle_event', 'RATE_LIMIT_REDIS_LEASE_MS', 'V1GATE_CLUSTER_HUB', 'V1_API_KEY'])
        .map((name) => [name, 'x']),
    );
    expect(unknownSettings(env)).toEqual([]);
    expect(knownVariables().has('PORT')).toBe(true);
  });

  it("leave alone OpenTelemetry's other variables, and name a one-edit slip of one v1gate reads", () => {
    const env = Object.fromEntries(
      ['OTEL_BLRP_SCHEDULE_DELAY', 'OTEL_BLRP_EXPORT_TIMEOUT', 'OTEL_BSP_MAX_QUEUE_SIZE', 'OTEL_TRACES_SAMPLER', 'OTEL_LOGS_EXPORTER']
        .concat(['OTEL_METRIC_EXPORT_INTERVAL', 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', 'OTEL_EXPORTER_OTLP_ENDPOIT'])
        .map((name) => [name, 'x']),
    );
    expect(unknownSettings(env)).toEqual([{ variable: 'OTEL_EXPORTER_OTLP_ENDPOIT', suggestion: 'OTEL_EXPORTER_OTLP_ENDPOINT' }]);
  });
});
