import { request, type Agent, type Dispatcher } from 'undici';
import { abandon } from '../shared/abandon.js';
import { throwIfBug } from '../translators/kit/failures.js';
import { uuidSegment } from '../translators/kit/instance-uuid.js';
import type { V2Authorizer } from '../upstream/auth/authorizer.js';
import type { Credentials } from '../upstream/credentials.js';
import { UpstreamUnavailable } from '../upstream/errors.js';
import type { LinkedFile } from './links.js';

/**
 * Where v2 keeps a linked file now: its recording's file list, asked of v2 at download time with a
 * fresh token of the link's key's app (GET /meetings/{uuid}/recordings). A link names the file, not
 * a v2 URL, so it works as long as v2 lists the file; a deleted or trashed recording (v2 answers
 * 404) or a file no longer in the list is gone.
 */

/** The file as v2 lists it: what a download, a HEAD and a conditional request are answered from. */
export interface CurrentFile {
  downloadUrl: string;
  size: number | undefined;
  fileType: string | undefined;
  fileExtension: string | undefined;
}

export type Resolution =
  { kind: 'file'; file: CurrentFile } | { kind: 'gone'; why: string } | { kind: 'refused'; status: number } | { kind: 'unreachable' };

export interface V2Access {
  agent: Agent;
  authorizer: V2Authorizer;
  /** The v2 base URL (`https://api.zoom.us/v2`, or the embedded sandbox's). */
  baseUrl: () => string;
}

/** A request to v2 that got no answer (no connection, a reset, a timeout, the client gone) as the failure it is. */
export const unanswered = (): never => {
  throw new UpstreamUnavailable('unreachable', 'v2 did not answer.', false);
};

/**
 * A request with the key's bearer token; a token v2 refuses that may be renewed (OAuth) is renewed
 * once, and the refused answer's body let go.
 */
export async function withToken(
  v2: V2Access,
  credentials: Credentials,
  send: (authorization: string) => Promise<Dispatcher.ResponseData>,
): Promise<Dispatcher.ResponseData> {
  for (let attempt = 1; ; attempt++) {
    const token = await v2.authorizer.tokenFor(credentials);
    const answer = await send(`Bearer ${token}`);
    if (answer.statusCode !== 401 || attempt > 1 || !v2.authorizer.renewable(credentials, token)) return answer;
    abandon(answer.body);
  }
}

/** The file's current place and description in v2, or why there is none. */
export async function resolveFile(v2: V2Access, credentials: Credentials, linked: LinkedFile, signal: AbortSignal): Promise<Resolution> {
  const url = `${v2.baseUrl()}/meetings/${encodeURIComponent(uuidSegment(linked.meetingUuid))}/recordings`;
  let answer: Dispatcher.ResponseData;
  try {
    answer = await withToken(v2, credentials, (authorization) =>
      request(url, { dispatcher: v2.agent, method: 'GET', headers: { authorization, accept: 'application/json' }, signal }).catch(
        unanswered,
      ),
    );
  } catch (error) {
    throwIfBug(error);
    return { kind: 'unreachable' };
  }
  if (answer.statusCode === 404) {
    abandon(answer.body);
    return { kind: 'gone', why: 'v2 has no such recording file any more (deleted, or in the trash).' };
  }
  if (answer.statusCode !== 200) {
    abandon(answer.body);
    return { kind: 'refused', status: answer.statusCode };
  }
  let listed: unknown;
  try {
    listed = await answer.body.json();
  } catch {
    return { kind: 'unreachable' };
  }
  return fileIn(listed, linked.fileId);
}

function fileIn(listed: unknown, fileId: string): Resolution {
  const files = (listed as { recording_files?: unknown } | null)?.recording_files;
  const found = Array.isArray(files) ? (files as Record<string, unknown>[]).find((file) => file?.['id'] === fileId) : undefined;
  if (!found) return { kind: 'gone', why: 'v2 has no such recording file any more (deleted, or in the trash).' };
  const downloadUrl = found['download_url'];
  if (typeof downloadUrl !== 'string' || downloadUrl === '') {
    return { kind: 'gone', why: 'v2 has no download for this recording file yet (it is still processing).' };
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const size = found['file_size'];
  return {
    kind: 'file',
    file: {
      downloadUrl,
      size: typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : undefined,
      fileType: text(found['file_type']),
      fileExtension: text(found['file_extension']),
    },
  };
}
