import { describe, expect, it } from 'vitest';
import { parseUrlEncoded, readParams } from './params.js';

describe('form fields as v1 clients spell them', () => {
  it('reads a[]=, a[0]= and a repeated key as one list', () => {
    expect(parseUrlEncoded('a[]=x&a[]=y')).toEqual({ a: ['x', 'y'] });
    expect(parseUrlEncoded('a%5B0%5D=x&a%5B1%5D=y')).toEqual({ a: ['x', 'y'] });
    expect(parseUrlEncoded('a=x&a=y')).toEqual({ a: ['x', 'y'] });
  });

  it('reads a list of objects sent as PHP nested fields as the JSON text other clients send', () => {
    const body = 'q%5B0%5D%5Btitle%5D=Size&q%5B0%5D%5Bvalue%5D=L&q%5B1%5D%5Btitle%5D=Colour&q%5B1%5D%5Bvalue%5D=Blue+green';
    expect(JSON.parse(parseUrlEncoded(body).q as string)).toEqual([
      { title: 'Size', value: 'L' },
      { title: 'Colour', value: 'Blue green' },
    ]);
  });

  it('orders indexed items by their index, not by arrival, and costs one entry for a huge index', () => {
    const read = parseUrlEncoded('q[999999999][title]=last&q[0][title]=first');
    expect(JSON.parse(read.q as string)).toEqual([{ title: 'first' }, { title: 'last' }]);
  });

  it('starts a new item of an a[][b] list when the field repeats (Rails and HTTParty)', () => {
    const read = parseUrlEncoded('p[][name]=Ada&p[][email]=ada%40x.org&p[][name]=Bob&p[][email]=bob%40x.org');
    expect(JSON.parse(read.p as string)).toEqual([
      { name: 'Ada', email: 'ada@x.org' },
      { name: 'Bob', email: 'bob@x.org' },
    ]);
  });

  it('keeps deeper nesting out of every param (no v1 param is nested deeper)', () => {
    expect(parseUrlEncoded('a[0][b][c]=x')).toEqual({ 'a[0][b][c]': 'x' });
  });

  it('reads nested fields from a multipart body too', async () => {
    const form = new FormData();
    form.append('q[0][title]', 'Size');
    form.append('q[0][value]', 'L');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const bytes = Buffer.from(await request.arrayBuffer());
    const read = await readParams('', bytes, request.headers.get('content-type') ?? undefined);
    expect(JSON.parse(read.q as string)).toEqual([{ title: 'Size', value: 'L' }]);
  });
});

describe('the field cap', () => {
  const fields = (count: number, prefix = 'f') => Array.from({ length: count }, (_, i) => `${prefix}${i}=1`).join('&');
  const tooMany = 'Too many parameters: a request may carry at most 1000 fields.';

  it('reads 1,000 fields and refuses the 1,001st', () => {
    expect(Object.keys(parseUrlEncoded(fields(1_000)))).toHaveLength(1_000);
    expect(() => parseUrlEncoded(fields(1_001))).toThrow(tooMany);
    expect(() => parseUrlEncoded(fields(400_000))).toThrow(tooMany);
  });

  it('counts a repeated key and each list item as fields', () => {
    expect(() => parseUrlEncoded(Array(1_001).fill('a[]=1').join('&'))).toThrow(tooMany);
    expect(() => parseUrlEncoded(Array(1_001).fill('a=1').join('&'))).toThrow(tooMany);
  });

  it('counts the query string and the body together', async () => {
    const body = Buffer.from(fields(600, 'b'));
    await expect(readParams(fields(400, 'q'), body, 'application/x-www-form-urlencoded')).resolves.toHaveProperty('q0', '1');
    await expect(readParams(fields(401, 'q'), body, 'application/x-www-form-urlencoded')).rejects.toThrow(tooMany);
  });

  it('takes its number from the request budget', async () => {
    await expect(readParams(fields(11), Buffer.alloc(0), undefined, 10)).rejects.toThrow(
      'Too many parameters: a request may carry at most 10 fields.',
    );
  });

  it('counts afresh when a form that is not UTF-8 is read again as windows-1252', () => {
    const latin1 = `${fields(999)}&name=R%E9union`;
    expect(parseUrlEncoded(latin1).name).toBe('Réunion');
  });

  it('refuses a multipart body of too many parts before the parser reads it', async () => {
    const form = new FormData();
    for (let i = 0; i < 1_001; i++) form.append(`f${i}`, '1');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const bytes = Buffer.from(await request.arrayBuffer());
    await expect(readParams('', bytes, request.headers.get('content-type') ?? undefined)).rejects.toThrow(tooMany);
    form.delete('f1000');
    const fits = new Request('http://x/', { method: 'POST', body: form });
    const read = await readParams('', Buffer.from(await fits.arrayBuffer()), fits.headers.get('content-type') ?? undefined);
    expect(Object.keys(read)).toHaveLength(1_000);
  });
});
