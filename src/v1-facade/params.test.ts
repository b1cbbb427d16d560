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
    const read = await readParams('', bytes, request.headers.get('content-type')!);
    expect(JSON.parse(read.q as string)).toEqual([{ title: 'Size', value: 'L' }]);
  });
});
