import { v2path } from '../../shared/v2-path.js';
import type { SessionKind } from './kinds.js';

/** v2 paths of a kind's sessions, every value encoded as one segment. */
export const sessionPath = (kind: SessionKind, id: string | number) =>
  kind.collection === 'meetings' ? v2path`/meetings/${id}` : v2path`/webinars/${id}`;

export const hostSessionsPath = (kind: SessionKind, hostId: string) =>
  kind.collection === 'meetings' ? v2path`/users/${hostId}/meetings` : v2path`/users/${hostId}/webinars`;

/** For v2Calls (docs/coverage.md). */
export const v2CallNames = (kind: SessionKind) => ({
  create: `POST /users/{userId}/${kind.collection}`,
  list: `GET /users/{userId}/${kind.collection}`,
  get: `GET /${kind.collection}/{${kind.noun}Id}`,
  patch: `PATCH /${kind.collection}/{${kind.noun}Id}`,
  delete: `DELETE /${kind.collection}/{${kind.noun}Id}`,
  status: `PUT /${kind.collection}/{${kind.noun}Id}/status`,
  user: 'GET /users/{userId}',
  liveMeetings: 'GET /users/{userId}/meetings',
});
