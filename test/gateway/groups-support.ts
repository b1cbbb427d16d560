import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { OutboundGate } from '../../src/upstream/client.js';
import { V2Error } from '../../src/upstream/errors.js';
import type { TestGateway } from '../support/gateway.js';

/**
 * Helpers of the sub account, group, IM group and recording gateway tests: exact v1 shapes,
 * users and names to work with, and an outbound gate that makes chosen v2 calls fail (to see
 * a multi-call v1 call undo what it did).
 */

export const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array';

/** The answer has exactly these fields, in this order, each of this JSON type. */
export function expectShape(answer: any, shape: Record<string, JsonType>): void {
  expect(answer?.error, JSON.stringify(answer)).toBeUndefined();
  expect(Object.keys(answer)).toEqual(Object.keys(shape));
  for (const [field, type] of Object.entries(shape)) {
    const actual = Array.isArray(answer[field]) ? 'array' : answer[field] === null ? 'null' : typeof answer[field];
    expect(actual, `${field} in ${JSON.stringify(answer)}`).toBe(type);
  }
}

/** A v1 error answer with this code (and a message matching `message`, when given). */
export function expectV1Error(answer: any, code: number, message?: RegExp | string): void {
  expect(answer?.error?.code, JSON.stringify(answer)).toBe(code);
  if (typeof message === 'string') expect(answer.error.message).toBe(message);
  else if (message) expect(answer.error.message).toMatch(message);
}

export const uniqueName = (prefix = 'group') => `${prefix} ${randomUUID().slice(0, 8)}`;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${randomUUID().slice(0, 8)}@gateway.test`;

/** Users of the sandbox's account, made through v2 POST /users (custCreate), in parallel. */
export async function createUsers(gw: TestGateway, count: number): Promise<{ id: string; email: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const email = uniqueEmail('member');
      const res = await gw.v2('POST', '/users', { body: { action: 'custCreate', user_info: { email, type: 1, first_name: 'Mem', last_name: 'Ber' } } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { id: res.body.id as string, email };
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
    schedule(_key, method, path, task) {
      if (this.failing && this.failing.method === method && this.failing.path.test(path)) {
        return Promise.reject(new V2Error(500, 500, 'Injected failure.'));
      }
      return task();
    },
    penalize() {},
  };
}
