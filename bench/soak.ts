import { canonicalPath } from '../src/translators/kit/registry.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';
import { buildCases } from './cases.js';
import { API_KEY, API_SECRET, problemsOf, Upstreams } from './harness.js';
import { runLoad } from './load.js';
import { startChild } from './procs.js';

/**
 * The soak (`npm run bench -- --soak`): the gateway alone under steady load for a long while, its
 * memory read after a full GC at intervals, and the slope of the heap and RSS over the run: a
 * leak shows as a slope that does not flatten.
 */
export interface SoakResult {
  v1Path: string;
  durationSec: number;
  connections: number;
  rps: number;
  problems: number;
  samples: { atSec: number; rssMb: number; heapUsedMb: number }[];
  /** Least-squares slope of heapUsed over the soak, MB per minute (after the first sample). */
  heapSlopeMbPerMin: number;
  rssSlopeMbPerMin: number;
}

/** The gateway alone on the one-call case for `durationSec`, memory read (after a full GC) every `sampleSec`. */
export async function runSoak(opts: {
  durationSec: number;
  sampleSec: number;
  connections: number;
  log?: (line: string) => void;
}): Promise<SoakResult> {
  const log = opts.log ?? (() => {});
  const served = new Set(ALL_ENDPOINTS.map((e) => canonicalPath(e.path)));
  const one = buildCases((p) => served.has(canonicalPath(p))).find(
    (c) => c.id === (served.has('/meeting/get') ? 'meeting-get' : 'checkemail'),
  )!;
  const upstreams = new Upstreams();
  try {
    const up = await upstreams.get('fixed');
    const gateway = await startChild('gateway', './gateway-proc.ts', {
      PORT: '0',
      V2_BASE_URL: up.baseUrl,
      V1_KEEP_ALIVE: 'on',
      V1_RATE_LIMITS: 'off',
      V2_RATE_LIMITS: 'off',
    });
    try {
      const form = new URLSearchParams({ api_key: API_KEY, api_secret: API_SECRET, ...one.params(up.seeded) }).toString();
      const url = `http://127.0.0.1:${gateway.ready.port}`;
      const samples: SoakResult['samples'] = [];
      const sample = async (atSec: number) => {
        const usage = (await gateway.ask('memory')).usage as NodeJS.MemoryUsage;
        samples.push({ atSec, rssMb: usage.rss / 2 ** 20, heapUsedMb: usage.heapUsed / 2 ** 20 });
        log(`  soak ${atSec}s: rss ${(usage.rss / 2 ** 20).toFixed(1)} MB, heap ${(usage.heapUsed / 2 ** 20).toFixed(1)} MB`);
      };
      await runLoad({ url, path: one.v1Path, body: form, connections: opts.connections, durationSec: 5 }); // warm-up
      await sample(0);
      let total = 0;
      let problems = 0;
      for (let at = 0; at < opts.durationSec; at += opts.sampleSec) {
        const r = await runLoad({ url, path: one.v1Path, body: form, connections: opts.connections, durationSec: opts.sampleSec });
        total += r.total;
        problems += problemsOf([r]);
        await sample(at + opts.sampleSec);
      }
      return {
        v1Path: one.v1Path,
        durationSec: opts.durationSec,
        connections: opts.connections,
        rps: total / opts.durationSec,
        problems,
        samples,
        heapSlopeMbPerMin: slope(samples.map((s) => [s.atSec / 60, s.heapUsedMb])),
        rssSlopeMbPerMin: slope(samples.map((s) => [s.atSec / 60, s.rssMb])),
      };
    } finally {
      await gateway.stop();
    }
  } finally {
    await upstreams.close();
  }
}

function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}
