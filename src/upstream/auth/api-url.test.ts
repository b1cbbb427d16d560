import { describe, expect, it } from 'vitest';
import { regionalBase } from './api-url.js';

describe('regionalBase', () => {
  const service = 'https://api.zoom.us/v2';

  it("follows a host of the service's own domain, keeping the configured path", () => {
    expect(regionalBase(service, 'https://api-eu.zoom.us')).toBe('https://api-eu.zoom.us/v2');
    expect(regionalBase(service, 'https://acme.zoom.us/')).toBe('https://acme.zoom.us/v2');
    expect(regionalBase('https://api.zoom.us/v2/', 'https://api-au.zoom.us')).toBe('https://api-au.zoom.us/v2');
  });

  it('keeps the configured base for its own origin, another domain, plain http, or no URL', () => {
    expect(regionalBase(service, 'https://api.zoom.us')).toBeUndefined();
    expect(regionalBase(service, 'https://api.zoom.us.evil.example')).toBeUndefined();
    expect(regionalBase(service, 'https://evilzoom.us')).toBeUndefined();
    expect(regionalBase(service, 'http://api-eu.zoom.us')).toBeUndefined();
    expect(regionalBase(service, 'not a url')).toBeUndefined();
    // A proxy in front of the service is kept, whatever region a token names.
    expect(regionalBase('https://proxy.internal.example/v2', 'https://api-eu.zoom.us')).toBeUndefined();
  });

  it('shares nothing under a top-level domain or an IP address', () => {
    expect(regionalBase('https://api.example/v2', 'https://other.example')).toBeUndefined();
    expect(regionalBase('https://10.0.0.1/v2', 'https://10.0.0.2')).toBeUndefined();
  });

  it('never leaves an address or this machine: another port there may be what a proxy stands in front of', () => {
    expect(regionalBase('http://127.0.0.1:8080/v2', 'http://127.0.0.1:9090')).toBeUndefined();
    expect(regionalBase('https://127.0.0.1:8080/v2', 'https://127.0.0.1:9090')).toBeUndefined();
    expect(regionalBase('https://localhost:8080/v2', 'https://localhost:9090')).toBeUndefined();
    expect(regionalBase(service, 'https://10.0.0.1')).toBeUndefined();
  });
});
