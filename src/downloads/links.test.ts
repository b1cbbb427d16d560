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

  it('carry no secret: neither the key nor anything but the grant', () => {
    const path = new DownloadLinks(KEY).pathOf(grant);
    expect(path).not.toContain(KEY);
    const [payload] = segmentOf(path).split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual({ u: grant.url, k: grant.apiKey, e: grant.expiresAtMs });
  });

  it('are refused as forged when any byte changes, when made with another key, or when too long', () => {
    const links = new DownloadLinks(KEY);
    const segment = segmentOf(links.pathOf(grant));
    const [payload, signature] = segment.split('.') as [string, string];
    const later = Buffer.from(JSON.stringify({ u: grant.url, k: grant.apiKey, e: 9_000_000 })).toString('base64url');
    const forged = [
      `${later}.${signature}`,
      `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      payload,
      `.${signature}`,
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
