import { describe, expect, it } from 'vitest';
import {
  MAX_TRACESTATE_INPUT,
  MAX_TRACESTATE_LENGTH,
  formatTraceparent,
  newSpanId,
  newTraceId,
  parseTraceparent,
  parseTracestate,
  propagateOnly,
} from './trace-context.js';
import { v2Route } from '../v2-contract/v2-route.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const VALID = `00-${TRACE}-${SPAN}-01`;

describe('parseTraceparent (W3C Trace Context, strictly)', () => {
  it('reads a version 00 header', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE, parentId: SPAN, flags: 1 });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)).toEqual({ traceId: TRACE, parentId: SPAN, flags: 0 });
  });

  it('keeps the sampled and random flags and drops the ones it does not know', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-ff`)?.flags).toBe(0x03);
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-02`)?.flags).toBe(0x02);
  });

  it('reads a later version by its first four fields, when what follows starts with a dash', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, parentId: SPAN, flags: 1 });
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01-what-comes-later`)).toEqual({ traceId: TRACE, parentId: SPAN, flags: 1 });
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01x`)).toBeUndefined();
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['version 00 with more after it', `${VALID}-extra`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['upper-case hex', VALID.toUpperCase()],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['a long parent id', `00-${TRACE}-${SPAN}0-01`],
    ['other separators', `00_${TRACE}_${SPAN}_01`],
    ['a non-hex flag', `00-${TRACE}-${SPAN}-0g`],
    ['spaces around it', ` ${VALID} `],
    ['two headers joined', `${VALID}, 00-${'a'.repeat(32)}-${SPAN}-01`],
    ['a huge value', `cc-${TRACE}-${SPAN}-01-${'a'.repeat(10_000)}`],
    ['markup', `00-<script>alert(1)</script>${'a'.repeat(30)}`],
  ])('ignores %s', (_, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });
});

describe('parseTracestate', () => {
  it('passes valid members on, without the spaces and empty members around them', () => {
    expect(parseTracestate('rojo=00f067aa0ba902b7 , congo=t61rcWkgMzE,,\tfw529a3039@dt=1')).toBe(
      'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE,fw529a3039@dt=1',
    );
    expect(parseTracestate('a=b c')).toBe('a=b c');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['only commas', ' , ,'],
  ])('has nothing to pass on when %s', (_, header) => {
    expect(parseTracestate(header)).toBeUndefined();
  });

  it.each([
    ['a member without =', 'rojo'],
    ['an upper-case key', 'Rojo=1'],
    ['a key starting with a digit (no tenant)', '1rojo=1'],
    ['a system id over 14 characters', `t@${'s'.repeat(15)}=1`],
    ['a value with =', 'rojo=a=b'],
    ['an empty value', 'rojo='],
    ['a value with a control character', 'rojo=a\u0001b'],
    ['a value over 256 characters', `rojo=${'v'.repeat(257)}`],
    ['a repeated key', 'rojo=1,congo=2,rojo=3'],
    ['more than 32 members', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')],
    ['a header over the input bound', `rojo=1,${' '.repeat(MAX_TRACESTATE_INPUT)}`],
  ])('drops the whole header for %s', (_, header) => {
    expect(parseTracestate(header)).toBeUndefined();
  });

  it(`cuts what is passed on to ${MAX_TRACESTATE_LENGTH} characters: long members first, then from the end`, () => {
    const long = `long=${'l'.repeat(200)}`;
    const members = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}=${'v'.repeat(20)}`);
    const cut = parseTracestate([members[0], long, ...members.slice(1)].join(','))!;
    expect(cut.length).toBeLessThanOrEqual(MAX_TRACESTATE_LENGTH);
    expect(cut).not.toContain('long=');
    expect(cut.split(',')).toEqual(members.slice(0, cut.split(',').length));
    expect(cut.split(',').length).toBe(Math.floor((MAX_TRACESTATE_LENGTH + 1) / (members[0]!.length + 1)));
  });
});

describe('ids and headers', () => {
  it('makes random ids of the right length, never all zeros', () => {
    const traces = new Set(Array.from({ length: 2_000 }, newTraceId));
    const spans = new Set(Array.from({ length: 2_000 }, newSpanId));
    expect(traces.size).toBe(2_000);
    expect(spans.size).toBe(2_000);
    for (const id of traces) expect(id).toMatch(/^[\da-f]{32}$/);
    for (const id of spans) expect(id).toMatch(/^[\da-f]{16}$/);
  });

  it('writes version 00 with two-digit flags, which reads back', () => {
    expect(formatTraceparent(TRACE, SPAN, 1)).toBe(VALID);
    expect(parseTraceparent(formatTraceparent(TRACE, SPAN, 3))?.flags).toBe(3);
  });
});

describe('propagateOnly (no exporter)', () => {
  const route = v2Route('GET', '/users/{userId}');

  it("continues the client's trace under a span of its own, passing its flags and tracestate on", () => {
    const call = propagateOnly.start(VALID, 'rojo=1');
    expect(call.traceId).toBe(TRACE);
    expect(call.spanId).not.toBe(SPAN);
    expect(call.recording).toBe(false);
    const sent = call.attempt(route, 1, false);
    expect(sent.traceparent).toBe(`00-${TRACE}-${call.spanId}-01`);
    expect(sent.tracestate).toBe('rojo=1');
    expect(sent.finish).toBeUndefined();
    expect(call.traceresponse).toBe(sent.traceparent);
  });

  it('starts a new trace for a malformed traceparent, and then passes no tracestate on', () => {
    const call = propagateOnly.start(`00-${TRACE}-${SPAN}-01-extra`, 'rojo=1');
    expect(call.traceId).not.toBe(TRACE);
    expect(call.traceId).toMatch(/^[\da-f]{32}$/);
    const sent = call.attempt(route, 1, false);
    expect(sent.traceparent).toBe(`00-${call.traceId}-${call.spanId}-00`);
    expect(sent.tracestate).toBeUndefined();
  });
});
