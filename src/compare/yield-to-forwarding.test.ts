import { describe, expect, it } from 'vitest';
import { forwardingGate } from './yield-to-forwarding.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('forwardingGate', () => {
  it('lets background work run only in a turn with no forward in flight', async () => {
    const gate = forwardingGate();
    gate.started();
    gate.started();
    let ran = false;
    const step = gate.quiet().then(() => (ran = true));
    for (let i = 0; i < 5; i++) await turn();
    expect(ran).toBe(false);
    gate.ended();
    await turn();
    expect(ran).toBe(false); // one forward still in flight
    gate.ended();
    await step;
    expect(gate.inFlight()).toBe(0);
  });

  it('checks again when a forward starts between the wake-up and the step', async () => {
    const gate = forwardingGate();
    gate.started();
    let ran = false;
    const step = gate.quiet().then(() => (ran = true));
    await turn();
    gate.ended();
    gate.started(); // arrives before the woken step's turn
    for (let i = 0; i < 5; i++) await turn();
    expect(ran).toBe(false);
    gate.ended();
    await step;
    expect(ran).toBe(true);
  });

  it('runs at once, in the next turn, when nothing is forwarding', async () => {
    const gate = forwardingGate();
    let ran = false;
    const step = gate.quiet().then(() => (ran = true));
    expect(ran).toBe(false);
    await step;
    expect(ran).toBe(true);
  });
});

describe('forwardingGate with a slow primary', () => {
  it('runs a step after maxWaitMs even while a forward stays in flight, and keeps no stale waiter', async () => {
    const gate = forwardingGate(5);
    gate.started(); // a primary that takes far longer than the bound to answer
    const start = performance.now();
    await gate.quiet();
    expect(performance.now() - start).toBeGreaterThanOrEqual(4);
    expect(gate.waiting()).toBe(0);
    gate.ended();
  });
});
