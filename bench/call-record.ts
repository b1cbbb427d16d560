import { SecretValues } from '../src/shared/secrets.js';
import { V2 } from '../src/v2-contract/v2-routes.js';
import type { V1CallRecord } from '../src/v1-steps/observe.js';

/**
 * A typical call's record, as the facade hands it to observers: a checkemail answered with its one
 * v2 call, and the request's own api_secret to redact by value. The log-line and observer benches
 * time the same call.
 */
export const RECORD: V1CallRecord = {
  requestId: '6f1c2a9e-3b8d-4f0e-9a51-2c7d4e8b1f30',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  startedAt: new Date(),
  method: 'POST',
  rawPath: '/v1/user/checkemail',
  endpoint: '/user/checkemail',
  apiKey: 'a-fairly-typical-api-key',
  secrets: new SecretValues(['a-fairly-typical-api-secret-value']),
  params: { email: 'someone@example.com', data_type: 'JSON' },
  errorCode: undefined,
  pairProven: true,
  answer: { existed_email: true },
  dataType: 'JSON',
  ms: 1.73,
  v2Calls: [{ route: V2.users.emailTaken, method: 'GET', path: '/users/email', undo: false, status: 200, ms: 1.2 }],
};
