import { XMLParser } from 'fast-xml-parser';
import type { RecordedCall } from './calls.js';

/**
 * Replaying a recorded v1 call against a v1 target: the same form fields, the caller's own
 * credentials substituted, and the answer parsed (JSON, or XML into the same object shape) so
 * two targets' answers can be compared field by field. The target `recorded` answers what the
 * recording holds.
 */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface Target {
  /** For the report: the URL, or `recorded`. */
  name: string;
  /** The secrets it sends (the replayed api_secret): redacted by value from every report. */
  secrets: readonly string[];
  call(call: RecordedCall, params: RecordedCall['params']): Promise<unknown>;
}

export function recordedTarget(): Target {
  return { name: 'recorded', secrets: [], call: async (call) => call.answer };
}

/** `http://host:port`, `http://host:port/v1` and `.../v1/` all name the same v1 API. */
export function v1Base(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v1$/i.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: true, trimValues: false });

/** A v1 answer's text as an object: JSON, or XML's `<response>` in the same shape; the text itself when it is neither. */
export function parseV1Answer(text: string, dataType: 'JSON' | 'XML'): unknown {
  if (dataType === 'XML') return (xml.parse(text) as { response?: unknown }).response ?? text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function liveTarget(url: string, credentials: Credentials, timeoutMs = 60_000): Target {
  const base = v1Base(url);
  return {
    name: url,
    secrets: [credentials.apiSecret],
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
      const answer = parseV1Answer(text, call.dataType);
      return answer === text && call.dataType === 'JSON' ? { '(not JSON)': `HTTP ${response.status}: ${text.slice(0, 200)}` } : answer;
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

  learn(recorded: unknown, answered: unknown): void {
    if (typeof recorded !== 'object' || recorded === null) return;
    for (const field of Object.keys(recorded).filter((name) => IDENTIFIER.test(name))) {
      const from = fieldOf(recorded, field);
      const to = fieldOf(answered, field);
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
