import { describe, expect, it } from 'vitest';
import { isUnframedHttp10Body, withContentLength } from './unframed-bodies.js';

describe('HTTP/1.0 bodies without a length', () => {
  it('are the 1.0 requests with a body method and neither Content-Length nor Transfer-Encoding', () => {
    expect(isUnframedHttp10Body('POST /v1/user/get HTTP/1.0\r\nContent-Type: x')).toBe(true);
    expect(isUnframedHttp10Body('post /v1/user/get HTTP/1.0')).toBe(true);
    expect(isUnframedHttp10Body('POST /v1/user/get HTTP/1.0\r\ncontent-length: 3')).toBe(false);
    expect(isUnframedHttp10Body('POST /v1/user/get HTTP/1.0\r\nTransfer-Encoding: chunked')).toBe(false);
    expect(isUnframedHttp10Body('POST /v1/user/get HTTP/1.1\r\nHost: x')).toBe(false);
    expect(isUnframedHttp10Body('GET /v1/user/get HTTP/1.0')).toBe(false);
  });

  it('are given the length of what followed the head', () => {
    const request = withContentLength('POST / HTTP/1.0', Buffer.from('a=é'));
    expect(request.toString('latin1')).toBe(`POST / HTTP/1.0\r\nContent-Length: 4\r\n\r\n${Buffer.from('a=é').toString('latin1')}`);
  });
});
