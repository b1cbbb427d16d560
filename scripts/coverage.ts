import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderCoverage } from '../src/translators/coverage.js';
import { ALL_ENDPOINTS } from '../src/translators/endpoints.js';
import { renderScopes } from '../src/translators/kit/scopes-doc.js';

/**
 * `npm run docs`: regenerate docs/coverage.md from the endpoint definitions and mapping tables, and
 * docs/scopes.md from the routes the endpoints declare and today's documents.
 */
const pages = { 'coverage.md': renderCoverage(), 'scopes.md': renderScopes(ALL_ENDPOINTS) };
for (const [name, text] of Object.entries(pages)) {
  const target = fileURLToPath(new URL(`../docs/${name}`, import.meta.url));
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
