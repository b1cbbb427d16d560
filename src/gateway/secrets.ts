import type { GatewayConfig } from '../config.js';

/** What the gateway redacts by value: the secrets its configuration and credential maps hold. */

/** The secrets a credential map holds (its v1 secrets are hashes; its v2 and SDK apps' are not): never written anywhere. */
export function v2SecretsOf(entries: GatewayConfig['credentials']['entries']): string[] {
  return entries.flatMap((entry) => [
    entry.v2.kind === 'jwt' ? entry.v2.secret : entry.v2.client_secret,
    ...(entry.sdk ? [entry.sdk.secret] : []),
  ]);
}

/** The secrets of the configuration, redacted by value from every log line, record and report. */
export function configuredSecrets(config: GatewayConfig): (string | undefined)[] {
  const redis = config.rateLimits.redis.url;
  return [
    config.sandbox.apiSecret,
    config.sandbox.oauthClientSecret,
    ...v2SecretsOf(config.credentials.entries),
    config.webhooks.token,
    config.webhooks.previousToken,
    config.ops.statusToken,
    redis && URL.canParse(redis) ? decodeURIComponent(new URL(redis).password) || undefined : undefined,
    ...Object.values(config.tracing.export?.headers ?? {}),
    config.tracing.export ? decodeURIComponent(new URL(config.tracing.export.url).password) || undefined : undefined,
  ];
}
