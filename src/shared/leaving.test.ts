import { describe, expect, it } from 'vitest';
import { Departure, EitherLeaving, leavingOf } from './leaving.js';

describe('Departure', () => {
  it('makes no signal until asked, and a signal asked for after leaving is already aborted with the reason', () => {
    const departure = new Departure();
    expect(departure.left).toBe(false);
    const reason = new Error('gone');
    departure.leave(reason);
    expect(departure.left).toBe(true);
    expect(departure.signal.aborted).toBe(true);
    expect(departure.signal.reason).toBe(reason);
  });

  it('aborts a signal asked for before leaving, once, with the first reason', () => {
    const departure = new Departure();
    const signal = departure.signal;
    let fired = 0;
    signal.addEventListener('abort', () => fired++);
    const first = new Error('first');
    departure.leave(first);
    departure.leave(new Error('second'));
    expect(fired).toBe(1);
    expect(signal.reason).toBe(first);
  });
});

describe('leavingOf', () => {
  it('reads left from the signal it wraps', () => {
    const controller = new AbortController();
    const leaving = leavingOf(controller.signal);
    expect(leaving.left).toBe(false);
    controller.abort();
    expect(leaving.left).toBe(true);
    expect(leaving.signal).toBe(controller.signal);
  });
});

describe('EitherLeaving', () => {
  it("has left when the call's own leaving has, or the one that covers every call, with that one's reason", () => {
    const own = new Departure();
    const all = new Departure();
    const either = new EitherLeaving(own, all);
    const signal = either.signal;
    expect(either.left).toBe(false);
    const shutdown = new Error('shutting down');
    all.leave(shutdown);
    expect(either.left).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(shutdown);

    const alone = new EitherLeaving(undefined, all);
    expect(alone.left).toBe(true);
    expect(alone.signal.reason).toBe(shutdown);
    const gone = new Departure();
    gone.leave(new Error('client gone'));
    expect(new EitherLeaving(gone, new Departure()).left).toBe(true);
  });
});
