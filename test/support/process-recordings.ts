import { sandboxToken } from '../../scripts/sandbox-token.js';

/**
 * A recording made on a gateway process's embedded sandbox, seen from outside as a client sees it:
 * the master account's OAuth token (found by its legacy pair, as `npm run v2-token` finds it), a
 * meeting made through v2, its happening with one file through the control API, and the file's
 * v1gate link from `/v1/recording/get`.
 */

export interface RecordedFile {
  /** The file's id: `recordingBytes(id)` are its bytes (src/sandbox/report/recording-downloads.ts). */
  id: string;
  /** Its download link, as the v1 answer gave it. */
  link: string;
  /** The cluster worker that answered the v1 call (`x-v1gate-worker`), if any. */
  worker: string | null;
}

export async function recordedFileAt(origin: string, pair: { key: string; secret: string }, bytes: number): Promise<RecordedFile> {
  const token = await sandboxToken(origin, pair.key, pair.secret);
  const v2 = async (method: string, path: string, body: unknown): Promise<any> =>
    (
      await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    ).json();
  const host = (await v2('GET', '/v2/users/me', undefined)).id as string;
  const meeting = await v2('POST', `/v2/users/${host}/meetings`, {
    topic: 'Recorded',
    type: 2,
    start_time: '2024-06-01T08:00:00Z',
    duration: 30,
  });
  const happened = await v2('POST', `/sandbox/meetings/${meeting.id}/happen`, {
    start_time: '2024-06-01T08:00:00Z',
    duration_minutes: 30,
    recording: { files: [{ file_type: 'MP4', file_size: bytes }] },
  });
  const form = new URLSearchParams({ api_key: pair.key, api_secret: pair.secret, meeting_id: happened.uuid });
  const got = await fetch(`${origin}/v1/recording/get`, { method: 'POST', body: form });
  const file = ((await got.json()) as { recording_files: { id: string; download_url: string }[] }).recording_files[0]!;
  return { id: file.id, link: file.download_url, worker: got.headers.get('x-v1gate-worker') };
}
