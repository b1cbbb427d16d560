import { describe, expect, it } from 'vitest';
import { defaultTokenUrlOf } from './v2-credentials.js';

describe('the default OAuth token URL', () => {
  it("is the service's OAuth host for its API host, not the API host's /oauth/token", () => {
    expect(defaultTokenUrlOf('https://api.zoom.us/v2')).toBe('https://zoom.us/oauth/token');
  });

  it("is any other v2's own origin + /oauth/token, as the sandbox serves it", () => {
    expect(defaultTokenUrlOf('http://127.0.0.1:8080/v2')).toBe('http://127.0.0.1:8080/oauth/token');
    expect(defaultTokenUrlOf('https://zoom-proxy.example.com/v2')).toBe('https://zoom-proxy.example.com/oauth/token');
  });
});
