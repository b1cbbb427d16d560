// @ts-check
import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The layers of docs/architecture.md as data, read by both checks that enforce them: ESLint
 * (eslint.config.js, as each file is written) and dependency-cruiser (.dependency-cruiser.mjs, the
 * whole import graph in `npm test`). A part is a folder (ending in `/`) or one file, relative to the
 * repository. Layers are listed top to bottom; a production module may import its own layer and
 * those below it, never one above. Tests are outside the rules: a test may import what it checks.
 */

const root = import.meta.dirname;

/** The translators' folders of v1 areas: every folder of src/translators but the two shared ones. */
const TRANSLATOR_AREAS = readdirSync(path.join(root, 'src/translators'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'kit' && entry.name !== 'sessions')
  .map((entry) => `src/translators/${entry.name}/`)
  .sort();

/**
 * @typedef {object} Layer
 * @property {string} name
 * @property {string[]} parts
 * @property {boolean} [isolated] the parts of this layer never import each other
 * @property {string} [isolatedWhy] what to do instead, for the lint message
 */

/** @type {Layer[]} */
export const LAYERS = [
  {
    name: 'process',
    parts: [
      'src/main.ts',
      'src/sandbox-banner.ts',
      'src/config.ts',
      'src/unknown-settings.ts',
      'src/cli/',
      'src/cluster/',
      'src/gateway.ts',
      'src/gateway/',
    ],
  },
  {
    name: 'ways in that read others',
    parts: ['src/ops/', 'src/recipe/'],
    isolated: true,
    isolatedWhy: "the operators' pages and the recipe share nothing of their own; what both read lies below",
  },
  {
    name: 'ways in',
    parts: ['src/v1-facade/', 'src/webhooks/', 'src/sdk/', 'src/compare/', 'src/downloads/'],
    isolated: true,
    isolatedWhy: 'what two ways in share goes down, to src/v1-steps/ (the steps of a v1 call and its record) or below',
  },
  { name: 'the v1 steps', parts: ['src/v1-steps/'] },
  { name: 'transport', parts: ['src/http/'] },
  { name: 'translation: the endpoint list', parts: ['src/translators/endpoints.ts', 'src/translators/coverage.ts'] },
  {
    name: 'translation: areas',
    parts: TRANSLATOR_AREAS,
    isolated: true,
    isolatedWhy: 'what two areas share goes to src/translators/kit/ (or sessions/ for the meeting and webinar family)',
  },
  { name: 'translation: sessions', parts: ['src/translators/sessions/'] },
  { name: 'translation: kit', parts: ['src/translators/kit/'] },
  { name: 'the v2 side', parts: ['src/upstream/', 'src/ratelimit/'] },
  { name: 'data', parts: ['mappings/'] },
  { name: 'v1 bottom', parts: ['src/v1/'] },
  { name: 'the v2 contract', parts: ['src/v2-contract/'] },
  { name: 'bottom', parts: ['src/shared/'] },
];

/**
 * Beside the layers: the embedded v2 service. It imports only `mayImport` (so that it stays a
 * stand-in for the real v2 service), and only the layers in `importedBy` import it (to start it).
 */
export const BESIDE = {
  name: 'the sandbox',
  parts: ['src/sandbox/'],
  mayImport: ['src/v2-contract/', 'src/shared/', 'src/http/request-body.ts'],
  importedBy: ['process'],
};

/** Files the layers rule over: production code of src/ and mappings/. */
export const RULED_FILES = ['src/**/*.ts', 'mappings/**/*.ts'];
export const UNRULED_FILES = ['**/*.test.ts'];

/** Whether `file` (relative to the repository) lies in `part`. */
export const inPart = (file, part) => (part.endsWith('/') ? file.startsWith(part) : file === part);

/** The layer (or BESIDE) and part a file belongs to, or undefined for a file outside every layer. */
export function placeOf(file) {
  for (const layer of [...LAYERS, BESIDE]) {
    const part = layer.parts.find((p) => inPart(file, p));
    if (part !== undefined) return { layer, part };
  }
  return undefined;
}

/**
 * @typedef {object} Ban
 * @property {string} part the part that may not be imported
 * @property {string[]} [except] files inside it that may be
 * @property {string} why
 */

/** What a module of `part` in `layer` may not import, with the reason the lint shows. */
export function bansOf(layer, part) {
  /** @type {Ban[]} */
  const bans = [];
  if (layer === BESIDE) {
    for (const other of LAYERS.flatMap((l) => l.parts)) {
      const allowedInside = BESIDE.mayImport.filter((allowed) => allowed !== other && inPart(allowed, other));
      if (BESIDE.mayImport.includes(other)) continue;
      bans.push({ part: other, except: allowedInside, why: `the sandbox imports only ${BESIDE.mayImport.join(' and ')}` });
    }
    return bans;
  }
  const index = LAYERS.indexOf(layer);
  for (const above of LAYERS.slice(0, index)) {
    for (const other of above.parts) bans.push({ part: other, why: `imports run downward only: ${layer.name} is below ${above.name}` });
  }
  if (layer.isolated) {
    for (const other of layer.parts.filter((p) => p !== part))
      bans.push({ part: other, why: `${layer.name} never import each other: ${layer.isolatedWhy}` });
  }
  if (!BESIDE.importedBy.includes(layer.name)) {
    for (const other of BESIDE.parts) bans.push({ part: other, why: `only ${BESIDE.importedBy.join(', ')} starts ${BESIDE.name}` });
  }
  return bans;
}
