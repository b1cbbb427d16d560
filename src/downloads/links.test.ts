import { describe, expect, it } from 'vitest';
import { isDownloadTarget } from './hosts.js';
import { DownloadLinks } from './links.js';

const KEY = 'a-download-signing-key-of-32-chars-at-least';
const grant = { url: 'https://zoom.us/rec/download/abc', apiKey: 'key-1', expiresAtMs: 2_000_000 };
const segmentOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

describe('download links', () => {
  it('read back as the grant they were made for, until they expire', () => {
    const links = new DownloadLinks(KEY);
    const segment = segmentOf(links.pathOf(grant));
    expect(links.read(segment, 1_999_999)).toEqual(grant);
    expect(links.read(segment, 2_000_000)).toEqual({ kind: 'expired', atMs: 2_000_000 });
  });

  it('carry no secret and show nothing of the grant: every byte is sealed', () => {
    const links = new DownloadLinks(KEY);
    const segment = segmentOf(links.pathOf(grant));
    expect(segment).toMatch(/^[\w-]+$/);
    for (const text of [KEY, grant.apiKey, grant.url, 'zoom.us', String(grant.expiresAtMs)]) {
      expect(segment).not.toContain(text);
      expect(Buffer.from(segment, 'base64url').includes(text)).toBe(false);
    }
    // A new IV each time: the same grant twice is two unrelated links.
    expect(segmentOf(links.pathOf(grant))).not.toBe(segment);
  });

  it('are refused as forged when any byte changes, when made with another key, or when too long', () => {
    const links = new DownloadLinks(KEY);
    const segment = segmentOf(links.pathOf(grant));
    const bytes = Buffer.from(segment, 'base64url');
    const flipped = (at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 1;
      return copy.toString('base64url');
    };
    const forged = [
      // Every byte of the IV, the ciphertext and the tag.
      ...Array.from({ length: bytes.length }, (_, at) => flipped(at)),
      segment.slice(0, -1),
      `${segment}A`,
      `${segment}.`,
      `${segment.slice(0, 10)}!${segment.slice(10)}`,
      bytes.subarray(0, 28).toString('base64url'),
      '',
      segmentOf(new DownloadLinks('another-key-of-at-least-thirty-two-chars').pathOf(grant)),
      `${segment}${'A'.repeat(4096)}`,
    ];
    for (const text of forged) expect(links.read(text, 0), text).toEqual({ kind: 'forged' });
    // A key made at random (DOWNLOAD_URL_KEY unset) reads only its own links.
    expect(new DownloadLinks(undefined).read(segment, 0)).toEqual({ kind: 'forged' });
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
