import { describe, expect, it } from 'vitest';
import { isDownloadTarget } from './hosts.js';
import { DownloadLinks, expiryOf } from './links.js';

const KEY = 'a-download-signing-key-of-32-chars-at-least';
const OTHER = 'another-key-of-at-least-thirty-two-chars';
const file = { apiKey: 'key-1', meetingUuid: 'iJ9tZ8/+kT2xQ==', fileId: '7c1e1b2a-93d4-4a5f-8d62-0b0f6a2b4c11' };
const segmentOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

describe('download links', () => {
  it('name their file: the same file gives the same link every time, on every instance with the key', () => {
    const one = new DownloadLinks({ current: KEY });
    const another = new DownloadLinks({ current: KEY });
    const segment = segmentOf(one.pathOf(file));
    expect(segmentOf(one.pathOf(file))).toBe(segment);
    expect(segmentOf(another.pathOf(file))).toBe(segment);
    expect(one.read(segment, 0)).toEqual(file);
    // Any clock: without a lifetime a link has no end.
    expect(another.read(segment, Date.UTC(2100, 0, 1))).toEqual(file);
    // Another file, or the same file of another key, is another link.
    expect(segmentOf(one.pathOf({ ...file, fileId: `${file.fileId}x` }))).not.toBe(segment);
    expect(segmentOf(one.pathOf({ ...file, apiKey: 'key-2' }))).not.toBe(segment);
  });

  it('with a lifetime: the same link within one period, refused after its end', () => {
    const links = new DownloadLinks({ current: KEY });
    const ttl = 3_600_000;
    const at = 10 * ttl + 5;
    const end = expiryOf(at, ttl);
    expect(end).toBe(12 * ttl);
    expect(expiryOf(at + ttl - 10, ttl)).toBe(end);
    const segment = segmentOf(links.pathOf({ ...file, expiresAtMs: end }));
    expect(links.read(segment, end - 1)).toEqual({ ...file, expiresAtMs: end });
    expect(links.read(segment, end)).toEqual({ kind: 'expired', atMs: end });
  });

  it('carry no secret and show nothing of the file: every byte is sealed', () => {
    const links = new DownloadLinks({ current: KEY });
    const segment = segmentOf(links.pathOf(file));
    expect(segment).toMatch(/^[\w-]+$/);
    for (const text of [KEY, file.apiKey, file.meetingUuid, file.fileId, '7c1e1b2a']) {
      expect(segment).not.toContain(text);
      expect(Buffer.from(segment, 'base64url').includes(text)).toBe(false);
    }
  });

  it('are refused as forged when any byte changes, when made with another key, or when too long', () => {
    const links = new DownloadLinks({ current: KEY });
    const segment = segmentOf(links.pathOf(file));
    const bytes = Buffer.from(segment, 'base64url');
    const flipped = (at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 1;
      return copy.toString('base64url');
    };
    const forged = [
      // Every byte of the SIV and the ciphertext.
      ...Array.from({ length: bytes.length }, (_, at) => flipped(at)),
      segment.slice(0, -1),
      `${segment}A`,
      `${segment}.`,
      `${segment.slice(0, 10)}!${segment.slice(10)}`,
      bytes.subarray(0, 16).toString('base64url'),
      '',
      segmentOf(new DownloadLinks({ current: OTHER }).pathOf(file)),
      `${segment}${'A'.repeat(4096)}`,
    ];
    for (const text of forged) expect(links.read(text, 0), text).toEqual({ kind: 'forged' });
    // A key made at random (DOWNLOAD_URL_KEY unset) reads only its own links.
    expect(new DownloadLinks({ current: undefined }).read(segment, 0)).toEqual({ kind: 'forged' });
  });

  it('of a key rotated out are read until DOWNLOAD_URL_KEY_PREVIOUS_UNTIL, and new links are made with the new key', () => {
    const old = segmentOf(new DownloadLinks({ current: OTHER }).pathOf(file));
    const rotated = new DownloadLinks({ current: KEY, previous: { key: OTHER, untilMs: 1_000 } });
    expect(rotated.read(old, 999)).toEqual(file);
    expect(rotated.read(old, 1_000)).toEqual({ kind: 'forged' });
    expect(segmentOf(rotated.pathOf(file))).toBe(segmentOf(new DownloadLinks({ current: KEY }).pathOf(file)));
  });
});

describe('download targets', () => {
  const hosts = ['zoom.us', '*.zoom.us'];
  const v2Origin = 'http://127.0.0.1:4000';
  it('are the download hosts over https on 443, and the v2 origin exactly', () => {
    for (const url of [
      'https://zoom.us/rec/download/x',
      'https://ssrweb.zoom.us/file?sig=1',
      'https://zoom.us:443/x',
      `${v2Origin}/rec/download/x`,
    ]) {
      expect(isDownloadTarget(url, hosts, v2Origin), url).toBe(true);
    }
  });
  it('are nothing else', () => {
    for (const url of [
      'http://zoom.us/x',
      'https://zoom.us:8443/x',
      'https://zoom.us.example.com/x',
      'https://evilzoom.us/x',
      'https://user:pass@zoom.us/x',
      'http://127.0.0.1:4001/x',
      'https://127.0.0.1:4000/x',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(isDownloadTarget(url, hosts, v2Origin), url).toBe(false);
    }
  });
});
