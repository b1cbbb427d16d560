import { createHash } from 'node:crypto';

/**
 * A recording file's ETag: v2 gives a file an id once and never changes its bytes, so the id and
 * the size name one representation. Made by v1gate, not passed on from v2, so HEAD, a 304 and a
 * GET all carry the same one whether or not v2's download sends its own, and it is known from v2's
 * file list before any byte of the file is asked for.
 */
export function entityTagOf(fileId: string, size: number | undefined): string {
  return `"${createHash('sha256')
    .update(`${fileId}\n${size ?? ''}`)
    .digest('base64url')
    .slice(0, 27)}"`;
}

/** Whether `If-None-Match` names this tag (or `*`), compared weakly as RFC 9110 §13.1.2 says. */
export function matchesAny(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((given) => {
    const tag = given.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
