/**
 * Seeds a v2 service (the sandbox) with what the benchmark's v1 calls read: one user with
 * settings, one scheduled meeting hosted by that user. Used to capture the fixed upstream's
 * fixtures once (capture-fixtures.ts) and to prepare the sandbox for the realistic run.
 */

export type V2Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface Seeded {
  userId: string;
  email: string;
  meetingId: string;
}

export const BENCH_EMAIL = 'bench.host@example.com';

export async function seedV2(v2: V2Call): Promise<Seeded> {
  const created = await v2('POST', '/users', {
    action: 'custCreate',
    user_info: { email: BENCH_EMAIL, type: 2, first_name: 'Bench', last_name: 'Host' },
  });
  if (created.status !== 201) throw new Error(`seed: POST /users answered ${created.status} ${JSON.stringify(created.body)}`);
  const userId = String(created.body.id);
  const meeting = await v2('POST', `/users/${encodeURIComponent(userId)}/meetings`, {
    topic: 'Weekly benchmark sync',
    type: 2,
    start_time: '2030-06-03T15:00:00Z',
    duration: 45,
    timezone: 'America/Los_Angeles',
  });
  if (meeting.status !== 201) throw new Error(`seed: POST meetings answered ${meeting.status} ${JSON.stringify(meeting.body)}`);
  return { userId, email: BENCH_EMAIL, meetingId: String(meeting.body.id) };
}
