import { parseRetryAfter } from '../shared/retry-after.js';
import { parseAnswer, recordedAnswer, type Answer } from './answers.js';
import type { RecordedCall } from './calls.js';

/**
 * Replaying a recorded v1 call against a v1 target: the same form fields, the caller's own
 * credentials substituted, and the answer read in its own format (answers.ts) so two targets'
 * answers can be compared field by field. The target `recorded` answers what the recording holds.
 */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/** What a target answered one call. */
export interface Reply {
  answer: Answer;
  /** v2 calls it made for the call, when it says (v1gate's `X-V2-Calls` header). */
  v2Calls?: number | undefined;
  /** When it refused for its rate limits and said how long to wait (`Retry-After`). */
  retryAfterMs?: number | undefined;
}

export interface Target {
  /** For the report: the URL, or `recorded`. */
  name: string;
  /** The secrets it sends (the replayed api_secret): redacted by value from every report. */
  secrets: readonly string[];
  /** The api_key its calls are paced and limited by (undefined: `recorded`, which is never limited). */
  apiKey: string | undefined;
  call(call: RecordedCall, params: RecordedCall['params']): Promise<Reply>;
}

export function recordedTarget(): Target {
  return {
    name: 'recorded',
    secrets: [],
    apiKey: undefined,
    call: async (call) => ({ answer: recordedAnswer(call), v2Calls: call.v2Calls.length || undefined }),
  };
}

/** `http://host:port`, `http://host:port/v1` and `.../v1/` all name the same v1 API. */
export function v1Base(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v1$/i.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

export function liveTarget(url: string, credentials: Credentials, timeoutMs = 60_000): Target {
  const base = v1Base(url);
  return {
    name: url,
    secrets: [credentials.apiSecret],
    apiKey: credentials.apiKey,
    async call(call, params) {
      const form = new URLSearchParams({ api_key: credentials.apiKey, api_secret: credentials.apiSecret });
      for (const [name, value] of Object.entries(params)) {
        if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, item);
        else form.append(name, value);
      }
      if (call.dataType === 'XML') form.set('data_type', 'XML');
      const response = await fetch(`${base}${call.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      const answer = parseAnswer(text, response.headers.get('content-type') ?? undefined);
      const v2Calls = Number(response.headers.get('x-v2-calls') ?? Number.NaN);
      return {
        answer: answer.format === 'text' ? { format: 'text', value: `HTTP ${response.status}: ${text.slice(0, 200)}` } : answer,
        v2Calls: Number.isInteger(v2Calls) ? v2Calls : undefined,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      };
    },
  };
}

/**
 * Ids a write minted on one target, carried into the later calls of the same sequence: when the
 * recording's answer had an identifier X (`id`, `uuid`, `group_id` ...: any top-level `*_id`) and
 * this target answered Y in the same field, later params equal to X send Y.
 */
export class IdCarrier {
  private readonly ids = new Map<string, string>();

  substitute(params: RecordedCall['params']): RecordedCall['params'] {
    if (this.ids.size === 0) return params;
    const swap = (value: string) => this.ids.get(value) ?? value;
    return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value.map(swap) : swap(value)]));
  }

  learn(recorded: Answer, answered: Answer): void {
    if (typeof recorded.value !== 'object' || recorded.value === null) return;
    for (const field of Object.keys(recorded.value).filter((name) => IDENTIFIER.test(name))) {
      const from = fieldOf(recorded.value, field);
      const to = fieldOf(answered.value, field);
      if (from !== undefined && to !== undefined && from !== to) this.ids.set(from, to);
    }
  }
}

const IDENTIFIER = /^(id|uuid|.+_id)$/;

function fieldOf(answer: unknown, field: string): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const value = (answer as Record<string, unknown>)[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
