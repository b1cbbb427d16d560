import { z } from 'zod';
import { V2 } from '../v2-contract/v2-routes.js';
import type { Credentials, V2Client } from '../upstream/client.js';

const V2_MEETING_HOST = z.object({ host_id: z.string().min(1) });
const V2_TOKEN = z.object({ token: z.string().min(1) });

/**
 * The ZAK a host's page needs to start a meeting with today's SDK: the meeting's host from
 * GET /meetings/{meetingId}, then that user's `GET /users/{userId}/token?type=zak`, both as the
 * key's v2 app (a mapped key's OAuth app), so the ZAK is the host's and never the caller's guess.
 */
export async function hostZak(v2: V2Client, credentials: Credentials, meetingNumber: string): Promise<string> {
  const meeting = V2_MEETING_HOST.parse(await v2.call(credentials, { target: V2.meetings.get.at(meetingNumber) }));
  const token = V2_TOKEN.parse(await v2.call(credentials, { target: V2.users.token.at(meeting.host_id), query: { type: 'zak' } }));
  return token.token;
}
