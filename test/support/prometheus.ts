/**
 * Reads the Prometheus text exposition format (version 0.0.4) into samples, so tests compare
 * numbers, not substrings. Handles `# HELP`/`# TYPE` lines, label escapes (\\, \", \n) and the
 * special values +Inf, -Inf and NaN.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = match[2] ?? '';
    LABEL.lastIndex = 0;
    let consumed = 0;
    for (let m = LABEL.exec(labelText); m; m = LABEL.exec(labelText)) {
      labels[m[1]!] = unescape(m[2]!);
      consumed = LABEL.lastIndex;
    }
    if (consumed !== labelText.length) throw new Error(`bad labels in: ${line}`);
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and (at least) these labels; 0 when none. */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}
