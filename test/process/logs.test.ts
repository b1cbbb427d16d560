import { afterEach, describe, expect, it } from 'vitest';
import { LOG_FLUSH_INTERVAL_MS } from '../../src/ops/logging.js';
import { startGatewayProcess, type GatewayProcess } from '../support/process-gateway.js';

/**
 * Logs as a log collector reads them: the gateway's standard output is a pipe (as under docker or
 * kubectl), and a failed call's line must be there while the gateway keeps running, not at
 * shutdown: the output buffer is flushed every LOG_FLUSH_INTERVAL_MS, and the line must come within
 * ten of those (a loaded machine runs the flush late and reads the pipe late). Every line names its process (pid) and, with WORKERS>1, its worker.
 */
const PROMPT_MS = 10 * LOG_FLUSH_INTERVAL_MS;
let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.kill();
  gateway = undefined;
});

type LogLine = { msg?: string; reqId?: string; pid?: number; worker?: number; level?: number; code?: number };

const linesOf = (output: string): LogLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/** A v1 call that fails (no credentials): its line is logged at warn. */
const failedCall = (url: string, requestId: string) =>
  fetch(`${url}/v1/user/get`, {
    method: 'POST',
    headers: { 'x-request-id': requestId, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'id=x',
  });

/** The line of that call, read from the child's output as it arrives, or undefined after `withinMs`. */
async function lineOf(child: GatewayProcess, requestId: string, withinMs: number): Promise<LogLine | undefined> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const line = linesOf(child.output()).find((l) => l.reqId === requestId);
    if (line || Date.now() > deadline) return line;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('log lines on a piped standard output', () => {
  it("show a failed call's line promptly while the gateway keeps running, with its pid", async () => {
    gateway = await startGatewayProcess({ LOG_LEVEL: 'info', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off' });
    const answer = await failedCall(gateway.url, 'prompt-log-1');
    expect(((await answer.json()) as { error: { code: number } }).error.code).toBe(101);
    const sentAt = Date.now();
    const line = await lineOf(gateway, 'prompt-log-1', PROMPT_MS);
    expect(line, `no line within ${PROMPT_MS} ms; output so far:\n${gateway.output()}`).toMatchObject({
      msg: 'v1 call failed',
      level: 30,
      code: 101,
      pid: gateway.pid,
    });
    expect(Date.now() - sentAt).toBeLessThan(PROMPT_MS);
    // Still serving: the line came while the process runs, not from its shutdown.
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(linesOf(gateway.output()).every((l) => l.pid === gateway!.pid && l.worker === undefined)).toBe(true);
  });

  it('name the worker that wrote them, with WORKERS>1', async () => {
    gateway = await startGatewayProcess(
      { LOG_LEVEL: 'info', WORKERS: '2', V1_RATE_LIMITS: 'off', V2_RATE_LIMITS: 'off' },
      { startTimeoutMs: 40_000 },
    );
    const answer = await failedCall(gateway.url, 'prompt-log-2');
    const workerPid = Number(answer.headers.get('x-v1gate-worker'));
    const line = await lineOf(gateway, 'prompt-log-2', PROMPT_MS);
    expect(line).toMatchObject({ msg: 'v1 call failed', pid: workerPid, worker: expect.any(Number) });
    expect([1, 2]).toContain(line!.worker);
    // The primary's own lines carry its pid and no worker of their own.
    const started = linesOf(gateway.output()).filter((l) => l.msg === 'worker started');
    expect(started).toHaveLength(2);
    for (const l of started) {
      expect(l.pid).toBe(gateway.pid);
      expect(l.worker).toBeUndefined();
    }
  });
});
