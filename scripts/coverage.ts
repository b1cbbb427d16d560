import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderCoverage } from '../src/translators/coverage.js';

/** `npm run docs`: regenerate docs/coverage.md from the endpoint definitions and mapping tables. */
const target = fileURLToPath(new URL('../docs/coverage.md', import.meta.url));
writeFileSync(target, renderCoverage());
console.log(`wrote ${target}`);
