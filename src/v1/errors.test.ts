import { describe, expect, it } from 'vitest';
import { V1Error, renderV1Error } from './errors.js';

describe('renderV1Error', () => {
  const error = new V1Error(300, 'Invalid parameter: topic. <b> & "quotes"', { 'Retry-After': '2' });

  it('writes the v1 envelope in JSON', () => {
    expect(JSON.parse(renderV1Error(error))).toEqual({ error: { code: 300, message: 'Invalid parameter: topic. <b> & "quotes"' } });
  });

  it('writes the same path in XML, escaped', () => {
    expect(renderV1Error(error, 'XML')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><response><error><code>300</code>' +
        '<message>Invalid parameter: topic. &lt;b&gt; &amp; &quot;quotes&quot;</message></error></response>',
    );
  });
});
