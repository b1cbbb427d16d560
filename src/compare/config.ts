import { z } from 'zod';
import { envSection, wholeNumber } from '../shared/env.js';

/** A share of calls, 0 to 1. */
const shareOfCalls = z
  .string()
  .trim()
  .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a number from 0 to 1')
  .transform(Number);

/** The recorder's and shadow mode's section of the configuration (src/config.ts reads every section together). */
export const COMPARE_SETTINGS = envSection({
  title: 'Recording and shadow mode',
  variables: {
    V1_RECORD_FILE: z
      .string()
      .min(1)
      .optional()
      .describe('append every v1 call served to this JSONL file (no credentials), for npm run compare'),
    V1_RECORD_MAX_BYTES: wholeNumber(1024, 1024 * 1024 * 1024 * 16)
      .default(64 * 1024 * 1024)
      .describe('rotate the record file to <file>.1 past this size; default 67108864'),
    V1_PRIMARY_URL: z
      .url({ error: 'must be a URL such as https://api.example.com' })
      .optional()
      .describe(
        'shadow mode: forward every v1 call to this real v1 and answer what it answers; v1gate compares its own answers in the background',
      ),
    SHADOW_SAMPLE: shareOfCalls.default(1).describe('share of read-only calls compared in shadow mode, 0 to 1; default 1'),
    SHADOW_PROMOTE_AFTER: wholeNumber(0, 100_000_000)
      .default(0)
      .describe('shadow mode: a read endpoint whose last N compared calls matched is answered by v1gate itself; 0: never; default 0'),
    SHADOW_PROMOTED_SAMPLE: shareOfCalls
      .default(0.05)
      .describe("share of a promoted endpoint's calls still compared with the primary, 0 to 1; default 0.05"),
    SHADOW_SERVE_WRITES: z
      .string()
      .optional()
      .describe(
        'comma-separated write endpoints v1gate answers itself in shadow mode (meeting/create,user/update); never automatic; default none',
      ),
    SHADOW_STATE_FILE: z
      .string()
      .min(1)
      .optional()
      .describe("where shadow mode's cut-over states survive a restart (REDIS_URL, when set, is used instead); unset: memory only"),
    SHADOW_MAX_COMPARED_BYTES: wholeNumber(1024, 64 * 1024 * 1024)
      .default(1024 * 1024)
      .describe(
        'shadow mode: the largest answer compared, the primary\'s or v1gate\'s: a larger one is still passed to the client whole, but not kept past this many bytes nor parsed, and is counted as too large (v1gate_shadow_calls_total{outcome="too_large"}, the report, the status page); default 1048576',
      ),
  },
  secret: ['V1_PRIMARY_URL'],
  build: (e) => ({
    record: { file: e.V1_RECORD_FILE, maxBytes: e.V1_RECORD_MAX_BYTES },
    shadow: {
      primaryUrl: e.V1_PRIMARY_URL,
      sample: e.SHADOW_SAMPLE,
      promoteAfter: e.SHADOW_PROMOTE_AFTER,
      promotedSample: e.SHADOW_PROMOTED_SAMPLE,
      serveWrites: (e.SHADOW_SERVE_WRITES ?? '')
        .split(',')
        .map((path) => path.trim())
        .filter(Boolean),
      stateFile: e.SHADOW_STATE_FILE,
      maxComparedBytes: e.SHADOW_MAX_COMPARED_BYTES,
    },
  }),
});
