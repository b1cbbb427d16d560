import { ConfigError, type GatewayConfig } from '../config.js';
import { SandboxDataError } from '../sandbox/persist.js';
import { SubscriptionsError } from '../webhooks/subscriptions.js';
import { PidFileInUse } from './pid-file.js';

/**
 * What an operator is told when v1gate cannot start: a line per problem naming the setting to
 * change, no stack trace, no secret. Undefined for an error no setting explains (a bug): that one
 * deserves its stack.
 */
export function describeStartError(error: unknown, config?: Pick<GatewayConfig, 'host' | 'port'>): string | undefined {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof SubscriptionsError) return error.message;
  if (error instanceof PidFileInUse || error instanceof SandboxDataError) return error.message;
  return listenProblem(error, config);
}

/** Why the port could not be opened, from the listen error's code. */
function listenProblem(error: unknown, config: Pick<GatewayConfig, 'host' | 'port'> | undefined): string | undefined {
  const { code, address, port } = error as { code?: string; address?: string; port?: number };
  const host = config?.host ?? address ?? 'HOST';
  const at = `${host}:${config?.port ?? port ?? 'PORT'}`;
  switch (code) {
    case 'EADDRINUSE':
      return `PORT: ${at} is in use by another process (stop it, or set PORT to a free port)`;
    case 'EACCES':
      return `PORT: ${at} needs privileges this user does not have (use a port above 1023)`;
    case 'EADDRNOTAVAIL':
      return `HOST: ${host} is not an address of this machine`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST: ${host} cannot be resolved`;
    default:
      return undefined;
  }
}
