import { randomUUID } from 'node:crypto';
import type { OutboundGate } from '../../src/upstream/client.js';
import { V2Error } from '../../src/upstream/errors.js';
import type { TestGateway } from '../support/gateway.js';
import { uniqueEmail, v2User } from '../support/v1-answers.js';

/**
 * Helpers of the sub account, group, IM group and recording gateway tests (the v1 answer checks
 * are in ../support/v1-answers.ts): users and names to work with, and an outbound gate that
 * makes chosen v2 calls fail (to see a multi-call v1 call undo what it did).
 */

export const uniqueName = (prefix = 'group') => `${prefix} ${randomUUID().slice(0, 8)}`;

/** Users of the sandbox's account, made through v2 POST /users (custCreate), in parallel. */
export async function createUsers(gw: TestGateway, count: number): Promise<{ id: string; email: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const email = uniqueEmail('member');
      const { id } = await v2User(gw, { email, type: 1, first_name: 'Mem', last_name: 'Ber' });
      return { id, email };
    }),
  );
}

/** The account id of the sandbox's master account, as v2 tells it. */
export async function callerAccountId(gw: TestGateway): Promise<string> {
  return (await gw.v2('GET', '/users/me')).body.account_id;
}

/**
 * An outbound gate that lets every v2 call through except those `failing` names, which fail
 * with a v2 500 before reaching the service. Set `failing` in a test; clear it after.
 */
export function faultyGate(): OutboundGate & { failing: { method: string; path: RegExp } | null } {
  return {
    failing: null,
    schedule(_credentials, { route, path }, task) {
      if (this.failing && this.failing.method === route.method && this.failing.path.test(path)) {
        return Promise.reject(new V2Error(500, 500, 'Injected failure.'));
      }
      return task();
    },
    penalize() {},
  };
}
