// @ts-check
import { BESIDE, LAYERS, UNRULED_FILES, bansOf } from './layers.config.js';

/**
 * The import graph check of `npm run graph` (part of `npm run lint`, so of `npm test`): every import
 * of production code in src/ and mappings/, resolved to the file it reaches (type-only imports
 * included), against the layer table of layers.config.js, which the lint also enforces, import by
 * import. On top of the lint: no cycle anywhere, of modules or of folders (two folders never
 * import each other), and dynamic `import()` counts too.
 */

const escape = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A part (a folder ending in `/` or one file) as a path pattern. */
const pathOf = (/** @type {string} */ part) => (part.endsWith('/') ? `^${escape(part)}` : `^${escape(part)}$`);

/** One rule per part: the parts it may not reach (bansOf is the lint's list too). */
const layerRules = [...LAYERS, BESIDE].flatMap((layer) =>
  layer.parts.flatMap((part) => {
    const bans = bansOf(layer, part);
    if (bans.length === 0) return [];
    return {
      name: `layers: ${part}`,
      comment: `${part} (${layer.name}) may not import ${[...new Set(bans.map((b) => b.why))].join('; ')}`,
      severity: /** @type {const} */ ('error'),
      from: { path: pathOf(part) },
      to: {
        path: bans.map((ban) => pathOf(ban.part)),
        ...(bans.some((ban) => ban.except?.length) ? { pathNot: bans.flatMap((ban) => ban.except ?? []).map(pathOf) } : {}),
      },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other have no order to load in, and no layer to belong to.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folders-both-ways',
      comment:
        'Two folders of src/ that import each other (through any files, or through a third folder) are one piece split in two: move the shared piece down a layer, or hand it in as a parameter.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: UNRULED_FILES.map((glob) => `${escape(glob.replace('**/*', ''))}$`) },
  },
};
